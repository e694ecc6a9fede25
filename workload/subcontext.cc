#include "workload/subcontext.h"

#include "workload/values.h"

#include <algorithm>
#include <set>

#include "frontend/block_names.h"
#include "workload/cells.h"

namespace polydat::workload {

const char* kind_name(ContractViolation::Kind k) {
  switch (k) {
    case ContractViolation::Kind::UnboundImport: return "unbound-import";
    case ContractViolation::Kind::FinalShadow: return "final-shadow";
    case ContractViolation::Kind::OpShadow: return "op-shadow";
    case ContractViolation::Kind::WriteType: return "write-type";
    case ContractViolation::Kind::ReservedName: return "reserved-name";
    case ContractViolation::Kind::Compile: return "compile";
  }
  return "compile";
}

const char* kind_word(VisibleName::Kind k) {
  switch (k) {
    case VisibleName::Kind::Binding: return "binding";
    case VisibleName::Kind::Cell: return "shared cell";
    case VisibleName::Kind::Var: return "loop variable";
    case VisibleName::Kind::Param: return "param";
    case VisibleName::Kind::Coordinate: return "coordinate";
  }
  return "name";
}

namespace {
constexpr const char* kWritePrefix = "__write_";
constexpr const char* kCycle = "cycle";
const char* const kMagic[] = {"ok", "count", "body"};

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (true) {
    const size_t nl = text.find('\n', start);
    lines.push_back(text.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  if (lines.size() > 1 && lines.back().empty()) lines.pop_back();  // a block's final newline
  return lines;
}

// The compiler's diagnostics, each shown at its place in the workload file
// (the kernel text is the file's fragments moved about; module files as they are).
std::string render_in_file(const frontend::CompileResult& r, const Placement& pl, const ParentView& pv) {
  const frontend::SourceMap& sources = r.program->sources;
  auto relabel = [](std::string text, const char* word) {
    const size_t at = text.find(": error: ");
    if (at != std::string::npos) text.replace(at, 9, std::string(": ") + word + ": ");
    return text;
  };
  std::string out;
  for (const frontend::Diagnostic& d : r.diagnostics().list()) {
    const Mark m = d.span.file == 0 ? pl.file_mark(d.span.start) : Mark{};
    if (!m.line) {
      out += frontend::render(d, sources);
      continue;
    }
    std::string one = render_workload_error(pv.path, pv.text, m, d.message, frontend::diag_kind_name(d.kind));
    if (d.severity == frontend::Severity::Warning) one = relabel(one, "warning");
    out += one;
    for (const auto& [span, note] : d.notes) {
      const Mark nm = span.file == 0 ? pl.file_mark(span.start) : Mark{};
      out += nm.line ? relabel(render_workload_error(pv.path, pv.text, nm, note, ""), "note")
                     : frontend::render_note_at(sources, span, note);
    }
  }
  return out;
}

std::string where(const VisibleName& n) {
  std::string s = n.scope;
  if (n.at.line) s += " at line " + std::to_string(n.at.line);
  return s;
}
}  // namespace

Placement place(const std::vector<Fragment>& fragments) {
  std::vector<const Fragment*> order;
  for (const Fragment& f : fragments) order.push_back(&f);
  auto index_of = [&](const Fragment* f) { return static_cast<uint32_t>(f - fragments.data()); };
  std::stable_sort(order.begin(), order.end(),
                   [](const Fragment* a, const Fragment* b) { return a->content.line < b->content.line; });
  std::vector<std::string> lines;
  Placement p;
  for (const Fragment* f : order) {
    const std::vector<std::string> text = split_lines(f->text);
    for (size_t i = 0; i < text.size(); ++i) {
      const uint32_t file_line = f->content.line ? static_cast<uint32_t>(f->content.line + i) : 0;
      // The file column of this line's first real byte, and how many made-up bytes come before it.
      const uint32_t file_col = i == 0 || f->literal_block ? std::max<uint32_t>(f->content.col, 1) : 1;
      const uint32_t made = i == 0 ? f->prefix : 0;
      size_t target = file_line;  // 1-based; 0: no place of its own
      std::string indent;
      if (target > lines.size() && file_col > made) {
        indent.assign(file_col - 1 - made, ' ');
      } else {
        target = lines.size() + 1;  // taken, no place, or no room for the prefix: after what is there
      }
      lines.resize(target - 1);
      p.origin.resize(target - 1);
      lines.push_back(indent + text[i]);
      const uint32_t real_at = static_cast<uint32_t>(indent.size() + made + 1);  // placed column of the first real byte
      p.origin.push_back(LineOrigin{file_line, static_cast<int64_t>(file_col) - real_at, real_at, index_of(f)});
    }
  }
  p.line_starts.push_back(0);
  for (const std::string& l : lines) {
    p.text += l + '\n';
    p.line_starts.push_back(static_cast<uint32_t>(p.text.size()));
  }
  return p;
}

// The placed line (1-based) and column of byte `offset`, by the line starts.
static std::pair<uint32_t, uint32_t> line_col(const std::vector<uint32_t>& starts, uint32_t offset) {
  const auto it = std::upper_bound(starts.begin(), starts.end(), offset);
  const uint32_t line = static_cast<uint32_t>(it - starts.begin());  // starts[0] == 0, so line >= 1
  return {line, offset - starts[line - 1] + 1};
}

uint32_t Placement::fragment_at(uint32_t offset) const {
  const uint32_t line = line_col(line_starts, offset).first;
  return line <= origin.size() ? origin[line - 1].fragment : UINT32_MAX;
}

Mark Placement::file_mark(uint32_t offset) const {
  const auto [line, col] = line_col(line_starts, offset);
  if (line > origin.size() || origin[line - 1].line == 0) return Mark{};
  const LineOrigin& o = origin[line - 1];
  const int64_t c = static_cast<int64_t>(std::max(col, o.first)) + o.shift;
  return Mark{o.line, static_cast<uint32_t>(c < 1 ? 1 : c)};
}

std::string place_fragments(const std::vector<Fragment>& fragments) { return place(fragments).text; }

SubcontextBuilder::SubcontextBuilder(ParentView parent, std::string label, Mark at)
    : parent_(std::move(parent)), label_(std::move(label)), at_(at) {}

SubcontextBuilder& SubcontextBuilder::import(std::string name, Mark at) {
  imports_.emplace_back(std::move(name), at);
  return *this;
}

SubcontextBuilder& SubcontextBuilder::body(Fragment f) {
  body_.push_back(std::move(f));
  return *this;
}

SubcontextBuilder& SubcontextBuilder::import_free_names() {
  import_free_ = true;
  return *this;
}

SubcontextBuilder& SubcontextBuilder::lib_paths(std::vector<std::string> paths) {
  lib_paths_ = std::move(paths);
  return *this;
}

ir::Expected<void, ContractViolation> SubcontextBuilder::add_result_bindings(Fragment f) {
  const Placement pl = place({f});
  const frontend::BlockNames names = frontend::analyze_block(parent_.path, pl.text);
  if (names.parse_ok) {
    for (const frontend::NameDef& d : names.defs)
      for (const char* m : kMagic)
        if (d.name == m) {
          ContractViolation v;
          v.kind = ContractViolation::Kind::ReservedName;
          v.name = d.name;
          v.message = "'" + d.name + "' is given by the op's result and cannot be assigned in result bindings";
          const Mark at = pl.file_mark(d.name_span.start);
          v.rendered = render_workload_error(parent_.path, parent_.text, at.line ? at : at_, v.message, kind_name(v.kind));
          return v;
        }
    for (const frontend::NameRef& r : names.free_refs)
      for (const char* m : kMagic)
        if (r.name == m && std::find(magic_.begin(), magic_.end(), m) == magic_.end()) magic_.push_back(m);
  }
  body_.push_back(std::move(f));
  return {};
}

ir::Expected<ScopeModule, ContractViolation> SubcontextBuilder::finalize() const {
  ScopeModule m;
  m.label = label_;
  m.path = parent_.path;
  m.file_text = parent_.text;
  m.at = at_;
  m.placement = place(body_);
  const Placement& pl = m.placement;
  const std::string& placed = pl.text;
  auto fail = [&](ContractViolation::Kind k, std::string name, std::string message, Mark at) {
    ContractViolation v;
    v.kind = k;
    v.name = std::move(name);
    v.message = std::move(message);
    v.rendered = render_workload_error(parent_.path, parent_.text, at.line ? at : at_, v.message, kind_name(k));
    return v;
  };
  const frontend::BlockNames names = frontend::analyze_block(parent_.path, placed);
  if (!names.parse_ok) {
    ContractViolation v;
    v.kind = ContractViolation::Kind::Compile;
    v.message = "the bindings of " + label_ + " do not parse";
    frontend::CompileResult r = frontend::compile_source(parent_.path, placed);
    v.rendered = r.ok() ? names.diagnostics : render_in_file(r, pl, parent_);
    return v;
  }
  std::set<std::string> defined;
  for (const frontend::NameDef& d : names.defs) defined.insert(d.name);

  // Imports: the explicit ones, then the names the body reads.
  std::vector<std::pair<std::string, Mark>> imports = imports_;
  std::set<std::string> referenced;
  bool reads_cycle = false;
  for (const frontend::NameRef& r : names.free_refs) {
    referenced.insert(r.name);
    if (r.name == kCycle) {
      reads_cycle = true;
      continue;
    }
    if (std::find(magic_.begin(), magic_.end(), r.name) != magic_.end()) continue;
    if (import_free_) imports.emplace_back(r.name, pl.file_mark(r.span.start));
  }
  // An `extern x: T` the block declares itself, for a name the scope around shows, is an import too.
  for (const frontend::NameDef& d : names.defs)
    if (d.kind == frontend::NameDef::Kind::Extern && parent_.names.count(d.name)) {
      const VisibleName& v = parent_.names.at(d.name);
      if (v.dynamic)
        return fail(ContractViolation::Kind::UnboundImport, d.name,
                    "'" + d.name + "' changes per cycle in " + where(v) +
                        "; an extern is set once per scope: read it without declaring it",
                    pl.file_mark(d.name_span.start));
      if (v.kind != VisibleName::Kind::Cell) m.imports.push_back(d.name);
    }
  std::set<std::string> seen;
  std::vector<std::string> import_names;
  for (const auto& [name, at] : imports) {
    if (!seen.insert(name).second) continue;
    auto it = parent_.names.find(name);
    if (it == parent_.names.end() || it->second.kind == VisibleName::Kind::Coordinate) {
      std::vector<std::string> known;  // what could be meant: names an import may read
      for (const auto& [n, v] : parent_.names)
        if (n != name && v.kind != VisibleName::Kind::Coordinate) known.push_back(n);
      std::string msg = "'" + name + "' is not defined in " + label_ + " nor in any scope around it";
      const std::string close = frontend::closest_name(name, known);
      if (!close.empty()) msg += " (did you mean '" + close + "'?)";
      return fail(ContractViolation::Kind::UnboundImport, name, msg, at);
    }
    import_names.push_back(name);
  }

  // Exports: shadowing rules and write-throughs.
  std::map<std::string, std::string> renames;
  for (const frontend::NameDef& d : names.defs) {
    if (d.kind != frontend::NameDef::Kind::Binding && d.kind != frontend::NameDef::Kind::Part) continue;
    const Mark at = pl.file_mark(d.name_span.start);
    auto it = parent_.names.find(d.name);
    const Fragment* from = pl.fragment_at(d.name_span.start) < body_.size() ? &body_[pl.fragment_at(d.name_span.start)] : nullptr;
    if (it != parent_.names.end() && from && from->no_shadow)
      return fail(ContractViolation::Kind::OpShadow, d.name,
                  "op-level binding '" + d.name + "' would shadow the " + kind_word(it->second.kind) + " '" + d.name +
                      "' of " + where(it->second) + "; op bindings add names, they do not replace them",
                  at);
    if (it != parent_.names.end() && it->second.is_const)
      return fail(ContractViolation::Kind::FinalShadow, d.name,
                  "'" + d.name + "' is const in " + where(it->second) + " and cannot be redefined in " + label_, at);
    if (d.is_shared && d.kind == frontend::NameDef::Kind::Binding) continue;  // a cell of this scope, not a binding
    if (it != parent_.names.end() && it->second.kind == VisibleName::Kind::Cell &&
        d.kind == frontend::NameDef::Kind::Part)
      return fail(ContractViolation::Kind::WriteType, d.name,
                  "'" + d.name + "' is a shared cell of " + where(it->second) +
                      "; a destructuring cannot write it: bind the part to another name, then write the cell with `" +
                      d.name + " := that_name`",
                  at);
    if (it != parent_.names.end() && it->second.kind == VisibleName::Kind::Cell) {
      renames[d.name] = kWritePrefix + d.name;
      m.write_throughs.push_back(
          WriteThrough{d.name, kWritePrefix + d.name, it->second.ty, it->second.combine, label_, at});
      continue;
    }
    m.exports.push_back(d.name);
  }

  // The declarations the body needs, after it.
  std::string decls;
  std::set<std::string> declared;
  for (const WriteThrough& w : m.write_throughs) {
    decls += "extern " + w.cell + ": " + ir::ty_label(w.ty) + "\n";
    declared.insert(w.cell);
  }
  for (const std::string& name : import_names) {
    if (declared.count(name) || defined.count(name)) continue;
    const VisibleName& v = parent_.names.at(name);
    if (v.dynamic) {
      decls += "input " + name + ": " + ir::ty_label(v.ty) + "\n";
      m.cycle_imports.push_back(name);
    } else {
      decls += "extern " + name + ": " + ir::ty_label(v.ty) + "\n";
      m.imports.push_back(name);
    }
  }
  if (reads_cycle) decls += "input cycle: u64\n";
  for (const std::string& magic : magic_)
    decls += "extern " + magic + ": " + (magic == "ok" ? "bool" : magic == "count" ? "u64" : "str") + "\n";
  m.reads_cycle = reads_cycle || defined.count(kCycle);
  std::vector<std::string> outputs = m.exports;
  for (const WriteThrough& w : m.write_throughs) outputs.push_back(w.output);
  if (outputs.empty()) {
    decls += "__scope := 0\n";  // a kernel needs an output; this one only carries cells
    outputs.push_back("__scope");
  }
  m.source = placed + decls;
  m.declarations_at = placed.size();

  m.options.scope_cells = true;
  m.options.rename_bindings = renames;
  m.options.outputs = outputs;
  m.options.lib_paths = lib_paths_;
  frontend::CompileResult r = frontend::compile_source(parent_.path, m.source, m.options);
  if (!r.ok()) {
    ContractViolation v;
    v.kind = ContractViolation::Kind::Compile;
    v.message = "the bindings of " + label_ + " do not compile";
    v.rendered = render_in_file(r, pl, parent_);
    return v;
  }
  const frontend::Unit& k = r.kernel();
  for (const frontend::Port& p : k.params) {
    m.params.emplace_back(p.name, p.ty);
    if (p.name != kCycle && !p.is_extern && std::find(m.cycle_imports.begin(), m.cycle_imports.end(), p.name) == m.cycle_imports.end())
      return fail(ContractViolation::Kind::Compile, p.name,
                  "input '" + p.name + "' of " + label_ + " has no source: a scope's kernel is fed `cycle` only",
                  pl.file_mark(p.span.start));
    if (p.is_shared) {
      VisibleName v{p.name, p.ty, VisibleName::Kind::Cell, p.is_const, false, false, p.combine, label_, pl.file_mark(p.span.start)};
      m.names[p.name] = v;
      m.cells.push_back(OwnCell{p.name, p.ty, p.combine, p.default_constant.value_or(ir::Value::zero(p.ty))});
    }
  }
  // A binding that reads a cell, directly or through others, changes whenever the cell is written:
  // inner scopes read it per cycle, like a value that reads `cycle`.
  std::set<std::string> reads_cell;
  for (const auto& [name, v] : parent_.names)
    if (v.kind == VisibleName::Kind::Cell) reads_cell.insert(name);
  for (const frontend::NameDef& d : names.defs)
    if (d.is_shared) reads_cell.insert(d.name);
  for (bool grew = true; grew;) {
    grew = false;
    for (const frontend::NameDef& d : names.defs)
      if (!reads_cell.count(d.name) && !d.is_shared &&
          std::any_of(d.refs.begin(), d.refs.end(), [&](const std::string& r) { return reads_cell.count(r) > 0; }))
        grew = reads_cell.insert(d.name).second || grew;
  }
  for (const frontend::Port& p : k.outputs) {
    m.outputs.push_back(p.name);
    m.output_types.push_back(p.ty);
    if (reads_cell.count(p.name)) m.cell_readers.insert(p.name);
    const auto wt = std::find_if(m.write_throughs.begin(), m.write_throughs.end(),
                                 [&](const WriteThrough& w) { return w.output == p.name; });
    if (wt != m.write_throughs.end()) {
      // Into a bool cell an integer goes as into `x: bool := ...`: only one known to be 0 or 1 (a comparison).
      std::string refusal;
      if (wt->combine != frontend::Combine::Count && wt->ty.is_bool() && p.ty.is_int() && !p.zero_or_one)
        refusal = "only a comparison (a 0 or 1) becomes a bool by itself: write `(...) as bool` or `... != 0`";
      else if (wt->combine != frontend::Combine::Count && !writable_into(p.ty, wt->ty))
        refusal = "convert it explicitly";
      if (!refusal.empty()) {
        const VisibleName& cell = parent_.names.at(wt->cell);
        return fail(ContractViolation::Kind::WriteType, wt->cell,
                    "binding '" + wt->cell + "' of " + label_ + " writes a " + ir::ty_label(p.ty) +
                        " value into shared cell '" + wt->cell + "' (" + ir::ty_label(wt->ty) + ", declared in " +
                        where(cell) + "); " + refusal,
                    pl.file_mark(p.span.start));
      }
      continue;
    }
    if (p.name.rfind("__", 0) == 0) continue;
    m.names[p.name] = VisibleName{p.name, p.ty, VisibleName::Kind::Binding, p.is_const, p.dynamic || reads_cell.count(p.name) > 0,
                                  reads_cell.count(p.name) > 0, frontend::Combine::Last, label_, pl.file_mark(p.span.start)};
  }
  for (const auto& [name, at] : imports_)
    if (!referenced.count(name))
      m.diagnostics.push_back("import '" + name + "' of " + label_ + " is declared but never read");
  return m;
}

std::string source_with_constants(const ScopeModule& m, const std::map<std::string, ir::Value>& values) {
  std::string source = m.source;
  for (const auto& [name, value] : values) {
    const std::string decl = "extern " + name + ": " + ir::ty_label(value.ty()) + "\n";
    size_t at = m.declarations_at;  // the declarations are one per line, after the body
    while (at < source.size() && source.compare(at, decl.size(), decl) != 0) {
      const size_t next = source.find('\n', at);
      at = next == std::string::npos ? source.size() : next + 1;
    }
    const auto literal = gk_literal(value);
    if (at < source.size() && literal)
      source.replace(at, decl.size(), name + ": " + ir::ty_label(value.ty()) + " := " + *literal + "\n");
  }
  return source;
}

}  // namespace polydat::workload
