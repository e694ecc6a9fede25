#include "frontend/cursors.h"

#include <map>
#include <set>

#include "ir/library_fn.h"
#include "ir/partition.h"

namespace polydat::frontend {

namespace {

using ir::Dest;
using ir::ObjectId;
using ir::OpKind;
using ir::Value;

constexpr std::string_view kExtentPrefix = "__cursor_extent_";
constexpr std::string_view kHelperPrefix = "__cursor_";
constexpr std::string_view kPartitionSuffix = "__cursor";

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool ends_with(std::string_view s, std::string_view p) { return s.size() >= p.size() && s.substr(s.size() - p.size()) == p; }

ExprPtr name_expr(std::string name, Span at) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::Name;
  e->span = at;
  e->name = std::move(name);
  e->name_span = at;
  return e;
}

ExprPtr call_expr(std::string callee, std::vector<ExprPtr> args, Span at) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::Call;
  e->span = at;
  e->name = std::move(callee);
  e->name_span = at;
  int depth = 0;
  for (ExprPtr& a : args) {
    depth = std::max(depth, a->depth);
    e->args.push_back(Arg{"", at, std::move(a)});
  }
  e->depth = depth + 1;
  return e;
}

StmtPtr binding(std::string name, Span name_span, Span span, ExprPtr value, std::optional<TypeRef> type = std::nullopt) {
  auto s = std::make_unique<Stmt>();
  s->kind = StmtKind::Binding;
  s->span = span;
  s->name = std::move(name);
  s->name_span = name_span;
  s->type = std::move(type);
  s->value = std::move(value);
  return s;
}

bool extending_cursor(std::string_view f) {
  return f == "until_elapsed" || f == "until_passes" || f == "until_count" || f == "until_elapsed_and_passes" ||
         f == "until_elapsed_or_passes";
}

// A parse-time refusal of a cursor's range: why `range` is not range(START, END).
std::string range_problem(const Expr& r) {
  if (r.kind == ExprKind::Call && r.name == "range") {
    if (r.args.size() != 2) return "range takes two arguments, range(start, end), not " + std::to_string(r.args.size());
    if (!r.args[0].name.empty() || !r.args[1].name.empty()) return "range takes its two arguments by position";
    return {};
  }
  if (r.kind == ExprKind::Call && extending_cursor(r.name))
    return "`" + r.name + "` is one of nb-rs's extending cursors, which grow until a time or a count is reached; "
           "polydat's cursors are fixed: range(start, end)";
  std::string m = "a cursor is declared `cursor NAME = range(start, end)`";
  if (r.kind == ExprKind::Call) m += "; polydat has no cursor source `" + r.name + "`";
  return m;
}

// Builds the IR of the partition built-ins; a builder refusal is rethrown as Failed.
struct Failed {
  ir::IrError error;
};

class PartitionIr {
 public:
  PartitionIr(ir::FnBuilder& fb, ir::SourceLoc at) : fb_(fb), at_(at) {}

  ObjectId get(ir::Result<ObjectId> r) {
    if (!r) throw Failed{r.error()};
    return *r;
  }
  ObjectId field(ObjectId p, uint32_t f, const std::string& name = {}) { return get(fb_.proj(p, f, Dest::fresh(name), at_)); }
  ObjectId u64(uint64_t v) { return get(fb_.constant(Value::integer(ir::TyKind::U64, v), at_)); }
  ObjectId f64(double d) { return get(fb_.constant(Value::f64(d), at_)); }
  ObjectId text(std::string s) { return get(fb_.constant(Value::str(std::move(s)), at_)); }
  ObjectId bin(OpKind op, ObjectId a, ObjectId b, const std::string& name = {}) {
    return get(fb_.binop(op, a, b, Dest::fresh(name), at_));
  }
  ObjectId select(ObjectId t, ObjectId f, ObjectId cond, const std::string& name = {}) {
    return get(fb_.phi(t, f, cond, Dest::fresh(name), at_));
  }
  ObjectId cast(ObjectId x, const ir::Ty& to) { return get(fb_.cast(x, to, Dest::fresh(), at_)); }
  ObjectId unop(OpKind op, ObjectId x) { return get(fb_.unop(op, x, Dest::fresh(), at_)); }
  ObjectId library(std::string_view fn, std::vector<ObjectId> args, const std::string& name = {}) {
    const ObjectId arg = get(fb_.pack(args, Dest::fresh(), at_));
    return get(fb_.library(*ir::find_library_fn(fn), arg, Dest::fresh(name), at_));
  }
  ObjectId make(const std::vector<ObjectId>& fields, const std::string& name) {
    return get(fb_.pack_struct(ir::partition_ty(), fields, Dest::fresh(name), at_));
  }
  bool is_text(ObjectId o) const { return fb_.type_of(o).is_str(); }

  // end - start, or 0 when the range is empty or reversed (nb-rs's saturating_sub).
  ObjectId extent(ObjectId start, ObjectId end) { return select(bin(OpKind::Sub, end, start), u64(0), bin(OpKind::Lt, start, end)); }

  // The first partition of `spec` against [0, extent).
  ObjectId from_spec(ObjectId spec, ObjectId extent, const std::string& name) {
    const std::vector<ObjectId> a{spec, extent};
    return make({u64(0), library("__partition_start", a), library("__partition_end", a),
                 library("__partition_start_pct", a), library("__partition_end_pct", a), extent},
                name);
  }

  // ir::reproject, field by field.
  ObjectId reproject(ObjectId p, ObjectId extent, const std::string& name) {
    const ObjectId base = field(p, ir::kBaseExtent);
    const ObjectId same = bin(OpKind::Or, bin(OpKind::Eq, base, extent), bin(OpKind::Eq, extent, u64(0)));
    const ObjectId size = cast(extent, ir::Ty::scalar(ir::TyKind::F64));
    auto at_pct = [&](uint32_t pct) {
      const ObjectId share = bin(OpKind::Mul, bin(OpKind::Div, field(p, pct), f64(100.0)), size);
      return cast(unop(OpKind::Round, share), ir::Ty::u64());
    };
    const ObjectId start_pct = field(p, ir::kStartPct), end_pct = field(p, ir::kEndPct);
    return make({field(p, ir::kIdx), select(field(p, ir::kStartOrd), at_pct(ir::kStartPct), same),
                 select(field(p, ir::kEndOrd), at_pct(ir::kEndPct), same), start_pct, end_pct,
                 select(base, extent, same)},
                name);
  }

 private:
  ir::FnBuilder& fb_;
  ir::SourceLoc at_;
};

}  // namespace

std::string cursor_start_name(std::string_view c) { return std::string(kExtentPrefix) + std::string(c) + "_start"; }
std::string cursor_end_name(std::string_view c) { return std::string(kExtentPrefix) + std::string(c) + "_end"; }
std::string cursor_over_name(std::string_view c) { return std::string(kHelperPrefix) + std::string(c) + "_over"; }
std::string cursor_problem_name(std::string_view c) { return std::string(kHelperPrefix) + std::string(c) + "_problem"; }
std::string cursor_partition_name(std::string_view c) { return std::string(c) + std::string(kPartitionSuffix); }

std::optional<std::string> cursor_of_start_name(std::string_view name) {
  if (!starts_with(name, kExtentPrefix) || !ends_with(name, "_start")) return std::nullopt;
  const std::string_view c = name.substr(kExtentPrefix.size(), name.size() - kExtentPrefix.size() - 6);
  if (c.empty()) return std::nullopt;
  return std::string(c);
}

bool is_cursor_helper(std::string_view name) { return starts_with(name, kHelperPrefix); }

std::optional<std::string> cursor_of(std::string_view name) {
  if (auto c = cursor_of_start_name(name)) return c;
  for (std::string_view tail : {"_end", "_over", "_problem"}) {
    const std::string_view prefix = tail == "_end" ? kExtentPrefix : kHelperPrefix;
    if (starts_with(name, prefix) && ends_with(name, tail) && name.size() > prefix.size() + tail.size())
      return std::string(name.substr(prefix.size(), name.size() - prefix.size() - tail.size()));
  }
  if (ends_with(name, kPartitionSuffix) && name.size() > kPartitionSuffix.size())
    return std::string(name.substr(0, name.size() - kPartitionSuffix.size()));
  return std::nullopt;
}

std::string written_name(std::string_view name) {
  const auto c = cursor_of(name);
  if (!c) return "'" + std::string(name) + "'";
  if (!is_cursor_helper(name)) return "'" + *c + ".cursor'";
  const char* part = ends_with(name, "_start") ? "range's start" : ends_with(name, "_end") ? "range's end" : "`over`";
  return "cursor " + *c + "'s " + part;
}

std::vector<StmtPtr> desugar_cursor(CursorDecl d, Diagnostics& diags) {
  std::vector<StmtPtr> out;
  if (d.name == "cycle" || d.name.find("__") != std::string::npos) {
    diags.error(DiagKind::Syntax, d.name_span,
                d.name == "cycle" ? "a cursor cannot be named `cycle`: a cursor's ordinal is the cycle"
                                  : "a cursor's name cannot hold `__`: the names made for the cursor do");
    return out;
  }
  if (const std::string why = range_problem(*d.range); !why.empty()) {
    diags.error(DiagKind::Syntax, d.range->span, why);
    return out;
  }
  const TypeRef u64{"u64", d.name_span};
  out.push_back(binding(cursor_start_name(d.name), d.name_span, d.span, std::move(d.range->args[0].value), u64));
  out.back()->doc = d.doc;
  out.push_back(binding(cursor_end_name(d.name), d.name_span, d.span, std::move(d.range->args[1].value), u64));
  if (!d.over) return out;
  const Span src = d.over->span;
  // `over partitions(spec, extent)`: the list's first partition (nb-rs's rule for a list).
  if (d.over->kind == ExprKind::Call && d.over->name == "partitions") d.over->name = "__partition_first";
  out.push_back(binding(cursor_over_name(d.name), src, src, std::move(d.over)));
  auto args = [&] {
    std::vector<ExprPtr> a;
    a.push_back(name_expr(cursor_over_name(d.name), src));
    a.push_back(name_expr(cursor_start_name(d.name), d.name_span));
    a.push_back(name_expr(cursor_end_name(d.name), d.name_span));
    return a;
  };
  out.push_back(binding(cursor_partition_name(d.name), d.name_span, d.span, call_expr("__cursor_over", args(), src)));
  out.push_back(binding(cursor_problem_name(d.name), src, src, call_expr("__cursor_problem", args(), src)));
  return out;
}

ExprPtr cursor_member(const std::string& base, Span base_span, const std::string& field, Span field_span,
                      Diagnostics& diags) {
  const Span whole{base_span.file, base_span.start, field_span.end};
  if (field == "cursor") return name_expr(cursor_partition_name(base), whole);
  if (field == "ordinal") return name_expr(base, whole);
  diags.error(DiagKind::Syntax, field_span,
              "`" + base + "." + field + "`: a cursor has `.cursor` (the partition it runs over) and `.ordinal`; "
              "GK values have no other members");
  return nullptr;
}

void add_cursor_ordinals(FileAst& ast, Diagnostics& diags) {
  std::set<std::string> defined;
  std::map<std::string, Span> read;
  bool declares_inputs = false;
  std::vector<std::pair<std::string, Span>> refs;
  for (const StmtPtr& s : ast.stmts) {
    if (s->kind == StmtKind::Binding) defined.insert(s->name);
    for (const auto& [n, sp] : s->names)
      if (s->kind == StmtKind::Destructure) defined.insert(n);
    if (s->kind == StmtKind::Input || s->kind == StmtKind::Extern)
      for (const Param& p : s->params) defined.insert(p.name);
    declares_inputs = declares_inputs || s->kind == StmtKind::Input;
    if (s->value) names_read(*s->value, no_locals(), refs);
    for (const Param& p : s->params)
      if (p.default_value) names_read(*p.default_value, no_locals(), refs);
  }
  for (const auto& [n, sp] : refs) read.emplace(n, sp);
  std::vector<StmtPtr> added;
  for (const StmtPtr& s : ast.stmts) {
    const auto c = s->kind == StmtKind::Binding ? cursor_of_start_name(s->name) : std::nullopt;
    if (!c || defined.count(*c) || !read.count(*c)) continue;
    defined.insert(*c);  // a cursor declared twice is reported once, as such
    if (declares_inputs && !defined.count("cycle")) {
      diags.error(DiagKind::UnknownName, read.at(*c),
                  "'" + *c + "' reads cursor " + *c + "'s ordinal, which is the cycle; this file declares its inputs "
                  "without `input cycle: u64`");
      continue;
    }
    added.push_back(binding(*c, s->name_span, s->span, name_expr("cycle", s->name_span)));
  }
  for (StmtPtr& s : added) ast.stmts.push_back(std::move(s));
}

const std::vector<BuiltinInfo>& partition_builtins() {
  static const std::vector<BuiltinInfo> t = {
      {.id = Builtin::StartOf, .name = "start_of", .params = {"partition"}, .signature = "start_of(partition) -> u64",
       .help = "the partition's first ordinal", .hardware = false},
      {.id = Builtin::EndOf, .name = "end_of", .params = {"partition"}, .signature = "end_of(partition) -> u64",
       .help = "one past the partition's last ordinal", .hardware = false},
      {.id = Builtin::IdxOf, .name = "idx_of", .params = {"partition"}, .signature = "idx_of(partition) -> u64",
       .help = "the partition's place in its list, from 0", .hardware = false},
      {.id = Builtin::Cardinality, .name = "cardinality", .params = {"partition"},
       .signature = "cardinality(partition) -> u64", .help = "how many ordinals the partition holds (end - start)",
       .hardware = false},
      {.id = Builtin::ModIn, .name = "mod_in", .params = {"n", "partition"}, .signature = "mod_in(n: u64, partition) -> u64",
       .help = "start + n % cardinality: n wrapped into the partition (start when it is empty)", .hardware = false},
      {.id = Builtin::ClampIn, .name = "clamp_in", .params = {"n", "partition"},
       .signature = "clamp_in(n: u64, partition) -> u64",
       .help = "n held inside the partition: at least start, at most end - 1 (start when it is empty)", .hardware = false},
      {.id = Builtin::At, .name = "at", .params = {"partition", "i"}, .signature = "at(partition, i: u64) -> u64",
       .help = "start + i; an i known to be past the partition is refused", .hardware = false},
      {.id = Builtin::Partitions, .name = "partitions", .params = {"spec", "extent"}, .last_default = 100,
       .signature = "partitions(spec: str, extent: u64 = 100) -> [partition]",
       .help = "the partitions of spec over [0, extent): a for_each source, or a cursor's `over`", .hardware = false},
      {.id = Builtin::CursorOver, .name = "__cursor_over", .params = {"source", "start", "end"},
       .signature = "__cursor_over(source, start: u64, end: u64) -> partition",
       .help = "the partition a cursor runs over (made for `over`)", .hardware = false},
      {.id = Builtin::CursorProblem, .name = "__cursor_problem", .params = {"source", "start", "end"},
       .signature = "__cursor_problem(source, start: u64, end: u64) -> str",
       .help = "why a cursor's `over` spec does not resolve, or \"\" (made for `over`)", .hardware = false},
      {.id = Builtin::PartitionFirst, .name = "__partition_first", .params = {"spec", "extent"}, .last_default = 100,
       .signature = "__partition_first(spec: str, extent: u64 = 100) -> partition",
       .help = "the first partition of spec over [0, extent) (made for `over partitions(...)`)", .hardware = false},
  };
  return t;
}

std::string_view partition_arg_kinds(Builtin b) {
  switch (b) {
    case Builtin::StartOf: case Builtin::EndOf: case Builtin::IdxOf: case Builtin::Cardinality: return "p";
    case Builtin::ModIn: case Builtin::ClampIn: return "np";
    case Builtin::At: return "pn";
    case Builtin::Partitions: case Builtin::PartitionFirst: return "Sn";
    case Builtin::CursorOver: case Builtin::CursorProblem: return "snn";
    default: return {};
  }
}

std::optional<std::string> spec_problem(const std::string& spec, uint64_t extent) {
  auto p = ir::partitions_of(spec, extent);
  if (p) return std::nullopt;
  return p.error();
}

ir::Result<ObjectId> lower_partition_builtin(ir::FnBuilder& fb, Builtin b, std::span<const ObjectId> args,
                                             ir::SourceLoc at, const std::string& name) {
  PartitionIr x(fb, at);
  try {
    switch (b) {
      case Builtin::StartOf: return x.field(args[0], ir::kStartOrd, name);
      case Builtin::EndOf: return x.field(args[0], ir::kEndOrd, name);
      case Builtin::IdxOf: return x.field(args[0], ir::kIdx, name);
      case Builtin::Cardinality:
        return x.bin(OpKind::Sub, x.field(args[0], ir::kEndOrd), x.field(args[0], ir::kStartOrd), name);
      case Builtin::At: return x.bin(OpKind::Add, x.field(args[0], ir::kStartOrd), args[1], name);
      case Builtin::ModIn: case Builtin::ClampIn: {
        const ObjectId n = args[0], start = x.field(args[1], ir::kStartOrd), end = x.field(args[1], ir::kEndOrd);
        const ObjectId card = x.bin(OpKind::Sub, end, start);
        ObjectId inside;
        if (b == Builtin::ModIn) {
          inside = x.bin(OpKind::Add, start, x.bin(OpKind::Mod, n, card));
        } else {  // max(n, start), then min(that, end - 1)
          const ObjectId up = x.select(start, n, x.bin(OpKind::Lt, n, start));
          const ObjectId last = x.bin(OpKind::Sub, end, x.u64(1));
          inside = x.select(last, up, x.bin(OpKind::Lt, last, up));
        }
        return x.select(start, inside, x.bin(OpKind::Eq, card, x.u64(0)), name);
      }
      case Builtin::CursorOver: {
        const ObjectId extent = x.extent(args[1], args[2]);
        return x.is_text(args[0]) ? x.from_spec(args[0], extent, name) : x.reproject(args[0], extent, name);
      }
      case Builtin::CursorProblem:
        if (!x.is_text(args[0])) return x.text("");
        return x.library("__partition_problem", {args[0], x.extent(args[1], args[2])}, name);
      case Builtin::PartitionFirst: return x.from_spec(args[0], args[1], name);
      default: return x.u64(0);  // partitions(...): refused by the checker
    }
  } catch (const Failed& f) {
    return f.error;
  }
}

ir::Result<ObjectId> lower_partition_text(ir::FnBuilder& fb, ObjectId p, ir::SourceLoc at) {
  PartitionIr x(fb, at);
  try {
    auto decimal = [&](uint32_t f) { return x.unop(OpKind::ToStr, x.field(p, f)); };
    auto percent = [&](uint32_t f) { return x.bin(OpKind::FormatFixed, x.field(p, f), x.u64(2)); };
    const std::vector<ObjectId> pieces{x.text("Partition("), decimal(ir::kIdx),     x.text("/? ["),
                                       decimal(ir::kStartOrd), x.text(".."),        decimal(ir::kEndOrd),
                                       x.text(") ["),          percent(ir::kStartPct), x.text("%.."),
                                       percent(ir::kEndPct),   x.text("%))")};
    ObjectId acc = pieces.front();
    for (size_t i = 1; i < pieces.size(); ++i) acc = x.bin(OpKind::Concat, acc, pieces[i]);
    return acc;
  } catch (const Failed& f) {
    return f.error;
  }
}

}  // namespace polydat::frontend
