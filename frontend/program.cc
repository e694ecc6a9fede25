#include "frontend/program.h"
#include "ir/library_fn.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "frontend/nbrs_names.h"
#include "frontend/parser.h"

namespace polydat::frontend {

namespace fs = std::filesystem;

std::vector<Stmt*> Unit::statements() const {
  std::vector<Stmt*> out;
  if (is_def) {
    for (StmtPtr& s : def->body) out.push_back(s.get());
    return out;
  }
  for (StmtPtr& s : ast->stmts)
    if (s->kind != StmtKind::ModuleDef) out.push_back(s.get());
  return out;
}

namespace {
std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every call name in an expression tree, with the span of its first use.
void collect_calls(const Expr& root, std::vector<std::pair<std::string, Span>>& out) {
  std::vector<const Expr*> work{&root};
  while (!work.empty()) {
    const Expr* e = work.back();
    work.pop_back();
    if (!e) continue;  // a slot the checker left empty (after checking, the tree is read again)
    if (e->kind == ExprKind::Call) out.emplace_back(e->name, e->name_span);
    for (const ExprPtr& c : e->operands) work.push_back(c.get());
    for (const ExprPtr& c : e->interpolated) work.push_back(c.get());
    for (const Arg& a : e->args) work.push_back(a.value.get());
    for (const LoopVar& v : e->vars) work.push_back(v.init.get());
    if (e->guard) work.push_back(e->guard.get());
    if (e->yield) work.push_back(e->yield.get());
    for (const StmtPtr& s : e->body)
      if (s->value) work.push_back(s->value.get());
  }
}
}  // namespace

std::string Program::unique_ir_name(const std::string& base) {
  const int n = ir_names_[base]++;
  return n == 0 ? base : base + "~" + std::to_string(n + 1);
}

size_t Program::add_file_unit(uint32_t file, const std::string& folder, const std::string& name) {
  const std::string& text = sources.file(file).text;
  if (const size_t nul = text.find('\0'); nul != std::string::npos) {  // one error, not one per byte
    diags.error(DiagKind::BinaryFile, Span{file, static_cast<uint32_t>(nul), static_cast<uint32_t>(nul + 1)},
                "this is not a kernel: it holds a NUL byte (a binary file?)");
    asts.push_back(std::make_unique<FileAst>(FileAst{file, {}}));
  } else {
    asts.push_back(std::make_unique<FileAst>(parse_file(sources, file, diags)));
  }
  Unit u;
  u.name = name;
  u.ir_name = unique_ir_name(name);
  u.file = file;
  u.folder = folder;
  u.ast = asts.back().get();
  units.push_back(std::move(u));
  return units.size() - 1;
}

bool Program::load_root_file(const std::string& path) {
  std::error_code ec;
  const bool is_folder = fs::is_directory(path, ec);
  auto text = is_folder ? std::nullopt : read_file(path);
  if (!text) {
    const uint32_t f = sources.add(path, "");
    diags.error(DiagKind::FileNotFound, Span{f, 0, 0},
                is_folder ? "'" + path + "' is a folder; give the kernel files (.gk) in it" : "cannot read " + path);
    return false;
  }
  const uint32_t f = sources.add(path, std::move(*text));
  const fs::path p(path);
  file_units_[fs::weakly_canonical(p).string()] = units.size();
  const std::string folder = p.parent_path().empty() ? "." : p.parent_path().string();
  return discover(f, folder, p.stem().string());
}

// Text that comes from no file has no folder: its modules come from the -L
// folders and the bundled library, never from the process's working directory.
bool Program::load_root_source(const std::string& name, std::string text) {
  const uint32_t f = sources.add(name, std::move(text));
  return discover(f, "", fs::path(name).stem().string());
}

bool Program::discover(uint32_t root_file, const std::string& folder, const std::string& name) {
  add_file_unit(root_file, folder, name);
  for (size_t u = 0; u < units.size(); ++u) discover_unit(u);  // units grows as modules are found
  order_units();
  return !diags.has_errors();
}

// Registers a file's module definitions, then resolves every call of the unit.
void Program::discover_unit(size_t ui) {
  if (!units[ui].is_def) {
    std::set<std::string> defined;
    for (StmtPtr& s : units[ui].ast->stmts) {
      if (s->kind != StmtKind::ModuleDef) continue;
      if (find_builtin(s->name)) {
        diags.error(DiagKind::BuiltinRedefinition, s->name_span, "'" + s->name + "' is a built-in function");
        continue;
      }
      if (!defined.insert(s->name).second) {
        diags.error(DiagKind::Redefinition, s->name_span, "module '" + s->name + "' is defined twice in this file");
        continue;
      }
      Unit d;
      d.is_def = true;
      d.name = s->name;
      d.ir_name = unique_ir_name(units[ui].ir_name + "." + s->name);
      d.file = units[ui].file;
      d.folder = units[ui].folder;
      d.ast = units[ui].ast;
      d.def = s.get();
      units.push_back(std::move(d));
    }
  }
  std::vector<std::pair<std::string, Span>> calls;
  for (Stmt* s : units[ui].statements()) {
    if (s->value) collect_calls(*s->value, calls);
    for (Param& p : s->params)
      if (p.default_value) collect_calls(*p.default_value, calls);
  }
  // In source order, so a problem is reported at the first call.
  std::stable_sort(calls.begin(), calls.end(), [](const auto& a, const auto& b) { return a.second.start < b.second.start; });
  if (units[ui].is_def)
    for (Param& p : units[ui].def->params)
      if (p.default_value) collect_calls(*p.default_value, calls);
  std::set<std::string> unknown;  // reported once per unit, not once per call
  for (size_t c = 0; c < calls.size(); ++c) {
    const auto [name, span] = calls[c];
    if (units[ui].callees.count(name) || unknown.count(name)) continue;
    if (auto b = find_builtin(name)) {
      units[ui].callees[name] = Callee{b->id, 0, std::nullopt, nullptr, nullptr};
      if (!b->uses.empty()) calls.emplace_back(std::string(b->uses), span);  // one_of hashes with `hash`
      continue;
    }
    if (auto fn = ir::find_library_fn(name)) {
      units[ui].callees[name] = Callee{std::nullopt, 0, *fn, nullptr, nullptr};
      continue;
    }
    if (const DistributionInfo* d = find_distribution(name); d && d->gk_callable && d->input_type == "f64") {
      units[ui].callees[name] = Callee{std::nullopt, 0, std::nullopt, d, nullptr};
      continue;
    }
    if (const SampledFunction* sf = find_sampled_function(name)) {
      units[ui].callees[name] = Callee{std::nullopt, 0, std::nullopt, nullptr, sf};
      for (std::string_view m : kSampledFunctionUses) calls.emplace_back(std::string(m), span);
      continue;
    }
    std::optional<size_t> target;
    for (size_t d = 0; d < units.size() && !target; ++d)  // a definition in the same file
      if (units[d].is_def && units[d].ast == units[ui].ast && units[d].name == name) target = d;
    if (!target) target = resolve_module(name, units[ui].folder, span, units[ui].ast);
    if (!target) {
      unknown.insert(name);
      continue;
    }
    units[ui].callees[name] = Callee{std::nullopt, *target, std::nullopt, nullptr, nullptr};
    units[ui].deps.push_back(*target);
  }
}

// NAME.gk from the calling file's folder, then the -L folders, then the bundled
// library. The bundled library calls only itself: a user's hash.gk never
// replaces the hash inside hash_range. A file is never its own callee: a
// kernel interleave.gk calling interleave finds the next candidate.
std::optional<size_t> Program::resolve_module(const std::string& name, const std::string& folder, Span at,
                                              const FileAst* caller) {
  std::vector<std::string> folders;
  if (folder != kBundledFolder) {
    if (!folder.empty()) folders.push_back(folder);
    folders.insert(folders.end(), options.lib_paths.begin(), options.lib_paths.end());
  }
  for (const std::string& dir : folders) {
    const fs::path candidate = fs::path(dir) / (name + ".gk");
    std::error_code ec;
    if (!fs::is_regular_file(candidate, ec)) continue;
    const std::string key = fs::weakly_canonical(candidate).string();
    auto it = file_units_.find(key);
    if (it != file_units_.end() && units[it->second].ast == caller) continue;
    if (options.bundled_stdlib && bundled_module(name) && !named_with_L(dir)) {
      // Beside the kernel, a file with a library module's name is most likely an accident.
      diags.error(DiagKind::ShadowedLibrary, at,
                  "'" + name + "' is both " + candidate.string() + " and the library's module " + kBundledFolder + "/" +
                      name + ".gk; rename the file, or pass its folder with -L to use it in place of the library's");
      return std::nullopt;
    }
    if (it != file_units_.end()) return it->second;
    auto text = read_file(candidate.string());
    if (!text) continue;
    const uint32_t f = sources.add(candidate.string(), std::move(*text));
    const size_t u = add_file_unit(f, candidate.parent_path().string(), name);
    file_units_[key] = u;
    return u;
  }
  if (options.bundled_stdlib) {
    if (auto text = bundled_module(name)) {
      const std::string key = std::string(kBundledFolder) + "/" + name + ".gk";
      if (auto it = file_units_.find(key); it != file_units_.end()) return it->second;
      const uint32_t f = sources.add(key, std::string(*text));
      const size_t u = add_file_unit(f, kBundledFolder, name);
      file_units_[key] = u;
      return u;
    }
  }
  std::vector<std::string> known = builtin_names();
  for (const std::string& n : bundled_module_names()) known.push_back(n);
  for (const ir::LibraryFn& f : ir::library_fns()) known.emplace_back(f.name);
  for (const DistributionInfo& d : distribution_catalog())
    if (d.gk_callable) known.emplace_back(d.name);
  for (const SampledFunction& f : sampled_functions()) known.emplace_back(f.name);
  for (const Unit& u : units)
    if (u.is_def) known.push_back(u.name);
  std::string message = "unknown function '" + name + "'";
  if (is_nbrs_function(name))
    message += ": nb-rs has it, polydat's library does not yet (`polydat functions` lists what it has)";
  else if (std::string near = closest_name(name, known); !near.empty())
    message += "; did you mean '" + near + "'?";
  diags.error(DiagKind::UnknownFunction, at, message);
  return std::nullopt;
}

std::vector<Program::CallSite> Program::call_sites_reaching(uint32_t file, uint32_t pos, size_t limit) const {
  auto holds = [&](const Unit& u) {
    if (u.file != file) return false;
    return !u.is_def || (u.def->span.start <= pos && pos < u.def->span.end);
  };
  if (units.empty() || holds(units[0])) return {};
  // path[u]: the chain of module names from u down to the code, when u reaches it (units are few).
  std::vector<std::optional<std::string>> path(units.size());
  for (size_t u : order) {  // callees first
    if (holds(units[u]) && units[u].is_def) path[u] = units[u].name;
    if (holds(units[u]) && !units[u].is_def) {
      bool in_def = false;
      for (size_t d = 0; d < units.size(); ++d) in_def = in_def || (d != u && units[d].is_def && holds(units[d]));
      if (!in_def) path[u] = units[u].name;
    }
    for (size_t d : units[u].deps)
      if (!path[u] && path[d]) path[u] = units[u].name + " -> " + *path[d];
  }
  std::vector<std::pair<std::string, Span>> calls;
  for (Stmt* s : units[0].statements())
    if (s->value) collect_calls(*s->value, calls);
  std::stable_sort(calls.begin(), calls.end(), [](const auto& a, const auto& b) { return a.second.start < b.second.start; });
  std::vector<CallSite> out;
  for (const auto& [name, span] : calls) {
    const auto c = units[0].callees.find(name);
    if (c == units[0].callees.end() || c->second.builtin || c->second.library || c->second.distribution ||
        c->second.sampled || !path[c->second.unit])
      continue;
    if (out.size() == limit) break;
    out.push_back(CallSite{span, *path[c->second.unit]});
  }
  return out;
}

bool Program::named_with_L(const std::string& dir) const {
  std::error_code ec;
  const fs::path d = fs::weakly_canonical(dir, ec);
  for (const std::string& l : options.lib_paths)
    if (fs::weakly_canonical(l, ec) == d) return true;
  return false;
}

// Callees first, by an iterative depth-first walk; a cycle is a recursive module.
void Program::order_units() {
  std::vector<int> state(units.size(), 0);  // 0 new, 1 on the stack, 2 done
  std::vector<std::pair<size_t, size_t>> stack;
  for (size_t root = 0; root < units.size(); ++root) {
    if (state[root]) continue;
    stack.emplace_back(root, 0);
    state[root] = 1;
    while (!stack.empty()) {
      auto& [u, next] = stack.back();
      if (next == units[u].deps.size()) {
        state[u] = 2;
        order.push_back(u);
        stack.pop_back();
        continue;
      }
      const size_t d = units[u].deps[next++];
      if (state[d] == 1) {
        std::string cycle;
        bool on = false;
        for (auto& [v, unused] : stack) {
          on = on || v == d;
          if (on) cycle += units[v].name + " -> ";
        }
        Span at{units[u].file, 0, 0};
        for (Stmt* s : units[u].statements()) {
          std::vector<std::pair<std::string, Span>> calls;
          if (s->value) collect_calls(*s->value, calls);
          for (auto& [n, sp] : calls)
            if (n == units[d].name && at.end == 0) at = sp;
        }
        diags.error(DiagKind::RecursiveModule, at, "modules call each other in a cycle: " + cycle + units[d].name);
      } else if (state[d] == 0) {
        state[d] = 1;
        stack.emplace_back(d, 0);
      }
    }
  }
}

}  // namespace polydat::frontend
