#include "workload/subcontext.h"

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

// Line and column (1-based) of byte `offset` in `text`.
Mark mark_at(const std::string& text, uint32_t offset) {
  Mark m{1, 1};
  for (uint32_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++m.line;
      m.col = 1;
    } else {
      ++m.col;
    }
  }
  return m;
}

std::string where(const VisibleName& n) {
  std::string s = n.scope;
  if (n.at.line) s += " at line " + std::to_string(n.at.line);
  return s;
}
}  // namespace

std::string place_fragments(const std::vector<Fragment>& fragments) {
  std::vector<const Fragment*> order;
  for (const Fragment& f : fragments) order.push_back(&f);
  std::stable_sort(order.begin(), order.end(),
                   [](const Fragment* a, const Fragment* b) { return a->content.line < b->content.line; });
  std::vector<std::string> lines;
  for (const Fragment* f : order) {
    const std::vector<std::string> text = split_lines(f->text);
    for (size_t i = 0; i < text.size(); ++i) {
      size_t target = f->content.line ? f->content.line + i : 0;  // 1-based
      if (target <= lines.size()) target = lines.size() + 1;       // taken (or no place): after what is there
      lines.resize(target - 1);
      const bool indent = f->content.col > 1 && (i == 0 || f->literal_block);
      lines.push_back((indent ? std::string(f->content.col - 1, ' ') : std::string()) + text[i]);
    }
  }
  std::string out;
  for (const std::string& l : lines) out += l + '\n';
  return out;
}

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
  const frontend::BlockNames names = frontend::analyze_block(parent_.path, place_fragments({f}));
  if (names.parse_ok) {
    for (const frontend::NameDef& d : names.defs)
      for (const char* m : kMagic)
        if (d.name == m) {
          ContractViolation v;
          v.kind = ContractViolation::Kind::ReservedName;
          v.name = d.name;
          v.message = "'" + d.name + "' is given by the op's result and cannot be assigned in result bindings";
          v.rendered = render_workload_error(parent_.path, parent_.text, mark_at(place_fragments({f}), d.name_span.start),
                                             v.message, kind_name(v.kind));
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
  const std::string placed = place_fragments(body_);
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
    v.rendered = names.diagnostics;
    return v;
  }
  // Which fragment (by placed line) a definition comes from: op-level ones may not shadow.
  std::set<uint32_t> no_shadow_lines;
  {
    std::vector<Fragment> alone;
    for (const Fragment& f : body_)
      if (f.no_shadow && f.content.line) {
        const size_t n = split_lines(f.text).size();
        for (size_t i = 0; i < n; ++i) no_shadow_lines.insert(static_cast<uint32_t>(f.content.line + i));
      }
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
    if (import_free_) imports.emplace_back(r.name, mark_at(placed, r.span.start));
  }
  std::set<std::string> seen;
  std::vector<std::string> import_names;
  for (const auto& [name, at] : imports) {
    if (!seen.insert(name).second) continue;
    auto it = parent_.names.find(name);
    if (it == parent_.names.end() || it->second.kind == VisibleName::Kind::Coordinate) {
      std::vector<std::string> known;
      for (const auto& [n, _] : parent_.names) known.push_back(n);
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
    if (d.is_shared && d.kind == frontend::NameDef::Kind::Binding) continue;  // a cell of this scope, not a binding
    const Mark at = mark_at(placed, d.name_span.start);
    auto it = parent_.names.find(d.name);
    if (it != parent_.names.end() && no_shadow_lines.count(at.line))
      return fail(ContractViolation::Kind::OpShadow, d.name,
                  "op-level binding '" + d.name + "' would shadow the " + kind_word(it->second.kind) + " '" + d.name +
                      "' of " + where(it->second) + "; op bindings add names, they do not replace them",
                  at);
    if (it != parent_.names.end() && it->second.is_const)
      return fail(ContractViolation::Kind::FinalShadow, d.name,
                  "'" + d.name + "' is const in " + where(it->second) + " and cannot be redefined in " + label_, at);
    if (it != parent_.names.end() && it->second.kind == VisibleName::Kind::Cell && !d.is_shared &&
        d.kind == frontend::NameDef::Kind::Binding) {
      renames[d.name] = kWritePrefix + d.name;
      m.write_throughs.push_back(
          WriteThrough{d.name, kWritePrefix + d.name, it->second.ty, it->second.combine, label_});
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
  bool has_input_decl = false;
  for (const frontend::NameDef& d : names.defs)
    if (d.kind == frontend::NameDef::Kind::Input) has_input_decl = true;
  m.reads_cycle = reads_cycle || defined.count(kCycle);
  (void)has_input_decl;
  std::vector<std::string> outputs = m.exports;
  for (const WriteThrough& w : m.write_throughs) outputs.push_back(w.output);
  if (outputs.empty()) {
    decls += "__scope := 0\n";  // a kernel needs an output; this one only carries cells
    outputs.push_back("__scope");
  }
  m.source = placed + decls;

  m.options.scope_cells = true;
  m.options.rename_bindings = renames;
  m.options.outputs = outputs;
  m.options.lib_paths = lib_paths_;
  frontend::CompileResult r = frontend::compile_source(parent_.path, m.source, m.options);
  if (!r.ok()) {
    ContractViolation v;
    v.kind = ContractViolation::Kind::Compile;
    v.message = "the bindings of " + label_ + " do not compile";
    v.rendered = r.render_diagnostics();
    return v;
  }
  const frontend::Unit& k = r.kernel();
  for (const frontend::Port& p : k.params) {
    m.params.emplace_back(p.name, p.ty);
    if (p.name != kCycle && !p.is_extern && std::find(m.cycle_imports.begin(), m.cycle_imports.end(), p.name) == m.cycle_imports.end())
      return fail(ContractViolation::Kind::Compile, p.name,
                  "input '" + p.name + "' of " + label_ + " has no source: a scope's kernel is fed `cycle` only",
                  mark_at(placed, p.span.start));
    if (p.is_shared) {
      VisibleName v{p.name, p.ty, VisibleName::Kind::Cell, false, false, p.combine, label_, mark_at(placed, p.span.start)};
      m.names[p.name] = v;
      m.cells.push_back(OwnCell{p.name, p.ty, p.combine, p.default_constant.value_or(ir::Value::zero(p.ty))});
    }
  }
  for (const frontend::Port& p : k.outputs) {
    m.outputs.push_back(p.name);
    const auto wt = std::find_if(m.write_throughs.begin(), m.write_throughs.end(),
                                 [&](const WriteThrough& w) { return w.output == p.name; });
    if (wt != m.write_throughs.end()) {
      if (!writable_into(p.ty, wt->ty)) {
        const VisibleName& cell = parent_.names.at(wt->cell);
        return fail(ContractViolation::Kind::WriteType, wt->cell,
                    "binding '" + wt->cell + "' of " + label_ + " writes a " + ir::ty_label(p.ty) +
                        " value into shared cell '" + wt->cell + "' (" + ir::ty_label(wt->ty) + ", declared in " +
                        where(cell) + "); convert it explicitly",
                    mark_at(placed, p.span.start));
      }
      continue;
    }
    if (p.name.rfind("__", 0) == 0) continue;
    m.names[p.name] = VisibleName{p.name, p.ty, VisibleName::Kind::Binding, p.is_const, p.dynamic,
                                  frontend::Combine::Last, label_, mark_at(placed, p.span.start)};
  }
  for (const auto& [name, at] : imports_)
    if (!referenced.count(name))
      m.diagnostics.push_back("import '" + name + "' of " + label_ + " is declared but never read");
  return m;
}

}  // namespace polydat::workload
