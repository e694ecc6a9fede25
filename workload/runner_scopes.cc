// The Runner's kernels and field values: bindings text with `{name}`
// substituted, scope kernels compiled once per distinct input (cached), ops
// prepared with their inline bindings and `if:`, and fields (cycles, loop
// conditions) evaluated against the scopes around them.
#include <algorithm>
#include <cctype>
#include <set>

#include "sim/llvm/native_embed.h"
#include "text/count.h"
#include "workload/runner_detail.h"
#include "workload/values.h"

namespace polydat::workload::runner_detail {

namespace {

// `{name}` in bindings text replaced by the value of a param or loop variable
// `name` (structural substitution); other braces are left to the kernel.
std::string substitute_vars(const std::string& text, const Frame& f) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '{' && i + 1 < text.size() && text[i + 1] == '{') {
      out += "{{";
      i += 2;
      continue;
    }
    if (text[i] == '{') {
      const size_t close = text.find('}', i + 1);
      if (close == std::string::npos) {  // no more placeholders: the rest as it is
        out.append(text, i, std::string::npos);
        break;
      }
      {
        const std::string name = text.substr(i + 1, close - i - 1);
        if (is_identifier(name))
          if (const ir::Value* v = f.find_var(name)) {
            out += op_text(*v);
            i = close + 1;
            continue;
          }
      }
    }
    out += text[i++];
  }
  return out;
}

}  // namespace

Fragment Runner::fragment_of(const Field& f, const Frame& vars, bool no_shadow) {
  return Fragment{substitute_vars(f.text, vars), f.content, f.literal_block, no_shadow};
}

ir::Expected<std::shared_ptr<const CompiledScope>, std::string> Runner::compile(const std::string& label, Mark at,
                                                                                const std::vector<Fragment>& frags,
                                                                                const Frame& parent) {
  // Every piece with its length first: no two different inputs give one key.
  std::string key;
  auto add = [&](const std::string& piece) { key += std::to_string(piece.size()) + ':' + piece; };
  add(label);
  for (const Fragment& f : frags) {
    add(f.text);
    add(std::to_string(f.content.line) + ',' + std::to_string(f.content.col) + ',' + std::to_string(f.prefix) +
        (f.no_shadow ? "!" : "") + (f.literal_block ? "|" : ""));
  }
  for (const auto& [name, v] : parent.visible()) {
    add(name);
    add(ir::ty_label(v.ty) + ',' + std::to_string(static_cast<int>(v.kind)) + (v.dynamic ? "d" : "") +
        (v.is_const ? "c" : "") + std::to_string(static_cast<int>(v.combine)));
  }
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  ParentView pv{parent.visible(), w_.path, w_.text};
  SubcontextBuilder b(std::move(pv), label, at);
  for (const Fragment& f : frags) b.body(f);
  b.import_free_names();
  b.lib_paths(lib_paths_);
  auto m = b.finalize();
  if (!m) return m.error().rendered;
  for (const std::string& d : m->diagnostics) s_.warnings.push_back(d);
  embed::KernelOptions ko;
  ko.compile = m->options;
  ko.outputs = m->options.outputs;
  std::shared_ptr<const sim::NativeKernel> native;  // the same JIT compile, for phases run in batches
  if (o_.native) ko.engine = sim::native_engine([&](std::shared_ptr<const sim::NativeKernel> k) { native = std::move(k); });
  auto k = embed::Kernel::compile(m->source, ko);
  if (!k) return render_workload_error(w_.path, w_.text, at, label + ": the kernel does not run on this engine: " + k.error().to_string(), "engine");
  auto c = std::make_shared<CompiledScope>(CompiledScope{std::move(*m), std::move(*k), {}, {}, nullptr});
  const std::vector<std::string> outs = c->prototype.output_names();
  for (size_t i = 0; i < outs.size(); ++i) c->output_index[outs[i]] = i;
  for (const WriteThrough& wt : c->module.write_throughs) c->write_output.push_back(c->output_index.at(wt.output));
  c->native = std::move(native);
  ++s_.compiles;
  cache_.emplace(key, c);
  return std::shared_ptr<const CompiledScope>(c);
}

ir::Expected<PreparedOps, std::string> Runner::prepare_ops(const std::vector<OpDef>& ops, const Frame& vars) {
  PreparedOps p;
  std::vector<InlineBinding> inlines;
  std::set<int> blocks;  // a block's bindings join the kernel once, however many of its ops run there
  for (const OpDef& op : ops) {
    if (op.block >= 0 && blocks.insert(op.block).second)
      if (const auto& b = w_.blocks.at(static_cast<size_t>(op.block)).bindings) p.fragments.push_back(fragment_of(*b, vars, true));
    PreparedOp po;
    po.def = &op;
    for (const auto& [name, field] : op.fields) {
      auto t = parse_template(field, "__inline_", inlines, op.map_form);
      if (!t) return render_workload_error(w_.path, w_.text, t.error().at, t.error().message, "op-template");
      po.fields.emplace_back(name, std::move(*t));
    }
    if (op.condition) {
      const std::string text = std::string(op.condition->text);
      std::string_view c = text;
      while (!c.empty() && std::isspace(static_cast<unsigned char>(c.front()))) c.remove_prefix(1);
      while (!c.empty() && std::isspace(static_cast<unsigned char>(c.back()))) c.remove_suffix(1);
      if (c.size() > 1 && c.front() == '{' && c.back() == '}') c = c.substr(1, c.size() - 2);
      if (is_identifier(c) && c != "true" && c != "false") {
        po.condition = std::string(c);
      } else {
        Mark at = op.condition->content;
        if (at.line) at.col += static_cast<uint32_t>(c.data() - text.data());  // past blanks and a brace
        InlineBinding b{"__if_" + std::to_string(inlines.size()), std::string(c), at};
        po.condition = b.name;
        inlines.push_back(std::move(b));
      }
    }
    if (op.bindings) p.fragments.push_back(fragment_of(*op.bindings, vars, true));
    p.ops.push_back(std::move(po));
  }
  for (const InlineBinding& b : inlines) {
    const std::string head = b.name + " := ";
    p.fragments.push_back(
        Fragment{head + substitute_vars(b.expr, vars), b.at, false, true, static_cast<uint32_t>(head.size())});
  }
  return p;
}

std::string Runner::field_error(const Field& f, const std::string& message, const char* kind) {
  return render_workload_error(w_.path, w_.text, f.content.line ? f.content : f.at, message, kind);
}

ir::Expected<ir::Value, std::string> Runner::eval_field(const Field& f, Frame& frame) {
  if (auto st = plannable(f, f.text, frame); !st) return st.error();
  std::string text = f.text;
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.erase(0, 1);
  FrameLookup look(frame, 0);
  std::string expr;
  if (text.size() > 2 && text.front() == '{' && text.back() == '}' && text.find('{', 1) == std::string::npos &&
      !is_identifier(text.substr(1, text.size() - 2))) {
    // `{expr}`: the names in it become literals of their values.
    const std::string inner = text.substr(1, text.size() - 2);
    size_t i = 0;
    while (i < inner.size()) {
      if (std::isalpha(static_cast<unsigned char>(inner[i])) || inner[i] == '_') {
        size_t j = i;
        while (j < inner.size() && (std::isalnum(static_cast<unsigned char>(inner[j])) || inner[j] == '_')) ++j;
        const std::string word = inner.substr(i, j - i);
        size_t k = j;
        while (k < inner.size() && inner[k] == ' ') ++k;
        std::optional<ir::Value> v;
        if (k >= inner.size() || inner[k] != '(') v = look.lookup(word);
        std::optional<std::string> lit = v ? gk_literal(*v) : std::nullopt;
        expr += lit ? *lit : word;
        i = j;
      } else if (inner[i] == '"') {
        const size_t end = inner.find('"', i + 1);
        const size_t stop = end == std::string::npos ? inner.size() : end + 1;
        expr += inner.substr(i, stop - i);
        i = stop;
      } else {
        expr += inner[i++];
      }
    }
  } else {
    auto t = embed::interpolate_via_kernel(text, look);
    if (look.error()) return *look.error();
    if (!t) return field_error(f, t.error().to_string(), "field");
    expr = *t;
  }
  if (look.error()) return *look.error();
  // A count with a K/M/B suffix (nb-rs writes cycles as 10K, 1M).
  if (const std::optional<uint64_t> n = text::parse_count(expr)) return ir::Value::integer(ir::TyKind::U64, *n);
  auto v = embed::eval_const_expr(expr);
  if (!v) return field_error(f, "'" + expr + "' (from '" + text + "'): " + v.error().message, "field");
  return *v;
}

ir::Expected<uint64_t, std::string> Runner::eval_count(const Field& f, Frame& frame) {
  auto v = eval_field(f, frame);
  if (!v) return v.error();
  const ir::Value& x = *v;
  if (x.ty().is_int() && !(x.ty().is_signed_int() && x.as_i64() < 0)) return x.as_u64();
  return field_error(f, "'" + f.key + "' must be a count (a non-negative integer), not " + op_text(x) + " (" +
                            ir::ty_label(x.ty()) + ")", "bad-count");
}

ir::Expected<bool, std::string> Runner::eval_condition(const Field& f, Frame& frame) {
  auto v = eval_field(f, frame);
  if (!v) return v.error();
  return truthy(*v);
}

}  // namespace polydat::workload::runner_detail
