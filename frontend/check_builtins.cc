// The checker's built-in functions: arithmetic and text built-ins, partitions, pick, and the parameter assertions.
#include <algorithm>

#include "frontend/check_internal.h"
#include "frontend/cursors.h"
#include "frontend/weights.h"
#include "ir/partition.h"
#include "ir/text_regex.h"

namespace polydat::frontend::check_detail {

// nb-rs's combinations takes a pattern only; a third, constant argument (its
// strings.gk passes a length) is dropped by its node builder, one that
// changes per evaluation is refused (a wire too many). So here, with a warning.
void UnitChecker::drop_combinations_length(Expr& e) {
  if (e.args.size() != 3 || !e.args[2].name.empty()) return;
  ExprPtr& length = e.args[2].value;
  const Typed t = check(length);
  coerce(length, t, Ty::u64(), true, "the length nb-rs ignores");
  if (t.dynamic) {
    error(DiagKind::ArgumentCount, length->span,
          "combinations takes no length (the pattern sets it); nb-rs drops a constant third argument and refuses "
          "one that changes per evaluation, as this one does");
  } else {
    diags().warning(DiagKind::ArgumentCount, length->span,
                    "combinations takes no length: nb-rs ignores this argument, and so does polydat (the pattern, "
                    "one character per ';'-separated set, sets the length)");
  }
  e.args.pop_back();
}

// nb-rs's defaults for the assertions' constants: lo 0, hi 2^64-1, name "".
void UnitChecker::fill_assertion_defaults(Expr& e, Builtin b) {
  auto fill = [&](size_t position, const std::string& name, ExprKind kind, __int128 value) {
    const bool given = e.args.size() > position && e.args[position].name.empty();
    if (given || std::any_of(e.args.begin(), e.args.end(), [&](const Arg& a) { return a.name == name; })) return;
    Arg d;
    d.name = name;
    d.value = std::make_unique<Expr>();
    d.value->span = e.span;
    d.value->kind = kind;
    if (kind == ExprKind::Int) d.value->int_value = value;
    else d.value->parts.push_back(StringPart{false, "", e.span});
    e.args.push_back(std::move(d));
  };
  if (b == Builtin::InRange) {
    fill(1, "lo", ExprKind::Int, 0);
    fill(2, "hi", ExprKind::Int, static_cast<__int128>(~uint64_t{0}));
  }
  if (b == Builtin::IsPositive) fill(1, "name", ExprKind::Str, 0);
}

Typed UnitChecker::check_builtin(Expr& e, const BuiltinInfo& b) {
  fill_assertion_defaults(e, b.id);
  if (b.id == Builtin::Combinations) drop_combinations_length(e);
  std::vector<std::string> names(b.params.begin(), b.params.end());
  const bool last_given = e.args.size() >= names.size() &&
                          std::all_of(e.args.begin(), e.args.begin() + static_cast<std::ptrdiff_t>(names.size()),
                                      [](const Arg& a) { return a.name.empty(); });
  const bool last_named = !names.empty() && std::any_of(e.args.begin(), e.args.end(),
                                                        [&](const Arg& a) { return a.name == names.back(); });
  if ((b.last_default || !b.last_default_text.empty()) && !last_given && !last_named) {
    Arg d;  // an omitted last argument takes its default
    d.name = names.back();
    d.value = std::make_unique<Expr>();
    d.value->span = e.span;
    if (b.last_default) {
      d.value->kind = ExprKind::Int;
      d.value->int_value = static_cast<int64_t>(*b.last_default);
    } else {
      d.value->kind = ExprKind::Str;
      d.value->parts.push_back(StringPart{false, std::string(b.last_default_text), e.span});
    }
    e.args.push_back(std::move(d));
  }
  auto slots = bind_args(e, names, b.variadic);
  if (!slots) return Typed{ETy::of(Ty::u64()), false};
  for (size_t i = 0; i < slots->size(); ++i)
    if ((*slots)[i] == nullptr) {
      error(DiagKind::MissingArgument, e.span, "'" + e.name + "' needs an argument for '" + names[i] + "'");
      return Typed{ETy::of(Ty::u64()), false};
    }
  if (b.variadic) {  // keep the extra positional arguments after the named slots
    std::vector<Arg> ordered;
    for (Arg* a : *slots) ordered.push_back(std::move(*a));
    for (size_t i = slots->size(); i < e.args.size(); ++i) ordered.push_back(std::move(e.args[i]));
    e.args = std::move(ordered);
  } else {
    std::vector<Arg> ordered;
    for (Arg* a : *slots) ordered.push_back(std::move(*a));
    e.args = std::move(ordered);
  }
  auto arg = [&](size_t i) -> ExprPtr& { return e.args[i].value; };
  switch (b.id) {
    case Builtin::Mod: case Builtin::Div: case Builtin::Add: case Builtin::Sub: case Builtin::Mul: {
      const Tok op = b.id == Builtin::Mod ? Tok::Percent : b.id == Builtin::Div ? Tok::Slash
                   : b.id == Builtin::Add ? Tok::Plus : b.id == Builtin::Sub ? Tok::Minus : Tok::Star;
      Typed t = arithmetic(op, arg(0), arg(1), e.span);
      // nb-rs refuses a constant divisor of 0 in mod and div; the operators follow RISC-V.
      if ((b.id == Builtin::Mod || b.id == Builtin::Div) && arg(1)->kind != ExprKind::Int)
        if (auto n = known_constant(*arg(1)); n && n->ty().is_int() && n->bits() == 0)
          error(DiagKind::ZeroDivisor, arg(1)->span,
                "the divisor of " + e.name + " is the constant 0 (as in nb-rs, " + e.name + " refuses it)");
      return t;
    }
    case Builtin::Min: case Builtin::Max: {
      Typed t = arithmetic(Tok::Plus, arg(0), arg(1), e.span);
      return t;
    }
    case Builtin::Clamp: {
      Typed tx = check(arg(0)), tl = check(arg(1)), th = check(arg(2));
      Unified u1 = unify(tx.t, tl.t);
      Unified u = u1.ty ? unify(ETy::of(*u1.ty), th.t) : u1;
      if (!u.ty || !u.ty->is_numeric()) {
        error(u.signed_unsigned ? DiagKind::SignedUnsignedMix : DiagKind::TypeMismatch, e.span,
              u.ty ? "clamp needs numbers" : u.error);
        return Typed{ETy::of(Ty::u64()), false};
      }
      coerce(arg(0), tx, *u.ty, false, "");
      coerce(arg(1), tl, *u.ty, false, "");
      coerce(arg(2), th, *u.ty, false, "");
      return Typed{ETy::of(*u.ty), tx.dynamic || tl.dynamic || th.dynamic};
    }
    case Builtin::Rotl: case Builtin::Rotr:
      return arithmetic(Tok::Shl, arg(0), arg(1), e.span);
    case Builtin::Popcount: case Builtin::Clz: case Builtin::Ctz: {
      Typed t = check(arg(0));
      integer_operand(arg(0), t, false, "the argument", e.span);
      return Typed{ETy::of(arg(0)->ty), t.dynamic};
    }
    case Builtin::ToF64: case Builtin::ToU64: {
      Typed t = check(arg(0));
      coerce(arg(0), t, t.t.ty, false, "");
      if (!arg(0)->ty.is_scalar())
        error(DiagKind::TypeMismatch, e.span, "cannot convert " + ir::ty_label(arg(0)->ty));
      return Typed{ETy::of(b.id == Builtin::ToF64 ? Ty::scalar(TyKind::F64) : Ty::u64()), t.dynamic};
    }
    case Builtin::FormatU64: case Builtin::ZeroPadU64: case Builtin::Hex: {
      bool dyn = false;
      for (size_t i = 0; i < e.args.size(); ++i) {
        Typed t = check(arg(i));
        dyn = dyn || t.dynamic;
        coerce(arg(i), t, Ty::u64(), true, "an argument of " + e.name);
      }
      if (b.id == Builtin::FormatU64) {  // nb-rs's radixes, fixed when the kernel is built
        auto r = known_constant(*arg(1));
        if (!r || !r->ty().is_int() || (r->bits() != 2 && r->bits() != 8 && r->bits() != 10 && r->bits() != 16))
          error(DiagKind::NotConstant, arg(1)->span, "the radix of format_u64 must be the constant 2, 8, 10 or 16");
      }
      return Typed{ETy::of(Ty::str()), dyn};
    }
    case Builtin::Sum: case Builtin::Product: break;  // folded into operators before checking
    case Builtin::Sqrt: case Builtin::Exp: case Builtin::Ln: case Builtin::Sin: case Builtin::Cos:
    case Builtin::Tan: case Builtin::Asin: case Builtin::Acos: case Builtin::Atan: case Builtin::AbsF64:
    case Builtin::Floor: case Builtin::Ceil: case Builtin::Round: case Builtin::Trunc:
    case Builtin::Atan2: case Builtin::Pow: {
      // At the operands' float type; integers (and float literals alone) are f64.
      std::vector<Typed> ts;
      bool dyn = false;
      std::optional<Ty> fty;
      for (size_t i = 0; i < e.args.size(); ++i) {
        ts.push_back(check(arg(i)));
        dyn = dyn || ts.back().dynamic;
        if (ts.back().t.ty.is_float() && ts.back().t.lit == ETy::Lit::None && !fty) fty = ts.back().t.ty;
      }
      const Ty to = fty.value_or(Ty::scalar(TyKind::F64));
      for (size_t i = 0; i < e.args.size(); ++i) {
        const Ty& from = ts[i].t.ty;
        if (!from.is_numeric() && !ts[i].t.is_literal()) {
          error(DiagKind::TypeMismatch, arg(i)->span, e.name + " needs a number, not " + ir::ty_label(from));
          continue;
        }
        if (ts[i].t.lit != ETy::Lit::None) coerce(arg(i), ts[i], to, false, "");
        else if (!(from == to)) wrap_cast(arg(i), to);
      }
      return Typed{ETy::of(to), dyn};
    }
    case Builtin::FormatF64: {
      Typed t = check(arg(0)), tp = check(arg(1));
      if (t.t.is_literal()) coerce(arg(0), t, Ty::scalar(TyKind::F64), false, "");
      else if (arg(0)->ty.is_int()) wrap_cast(arg(0), Ty::scalar(TyKind::F64));
      else if (!arg(0)->ty.is_float()) error(DiagKind::TypeMismatch, arg(0)->span, "format_f64 writes a number");
      coerce(arg(1), tp, Ty::u64(), true, "the precision");
      return Typed{ETy::of(Ty::str()), t.dynamic || tp.dynamic};
    }
    case Builtin::StrConcat: break;  // folded into a string before checking
    case Builtin::Combinations: {
      Typed t = check(arg(0));
      coerce(arg(0), t, Ty::u64(), true, "the value to write");
      check(arg(1));
      if (!literal_text(*arg(1)))
        error(DiagKind::NotConstant, arg(1)->span, "the pattern of combinations must be a string literal");
      return Typed{ETy::of(Ty::str()), t.dynamic};
    }
    case Builtin::OneOf: {
      Typed t = check(arg(0));
      coerce(arg(0), t, Ty::u64(), true, "the value to hash");
      bool dyn = t.dynamic;
      for (size_t i = 1; i < e.args.size(); ++i) {
        Typed tv = check(arg(i));
        dyn = dyn || tv.dynamic;
        if (!arg(i)->ty.is_str()) error(DiagKind::TypeMismatch, arg(i)->span, "one_of chooses among str values");
      }
      return Typed{ETy::of(Ty::str()), dyn};
    }
    case Builtin::OneOfWeighted:
    case Builtin::WeightedU64: case Builtin::WeightedStrings: case Builtin::WeightedPick: case Builtin::Histribution: {
      Typed t = check(arg(0));
      coerce(arg(0), t, Ty::u64(), true, "the value to choose by");
      for (size_t i = 1; i < e.args.size(); ++i) {
        if (!e.args[i].name.empty() && b.id == Builtin::WeightedPick && i > 2)
          error(DiagKind::UnknownArgument, e.args[i].name_span, "weighted_pick takes its pairs by position");
        Typed ta = check(arg(i));
        coerce(arg(i), ta, ta.t.ty, false, "");
      }
      std::string problem;
      Span at;
      const auto items = weighted_call_items(e, b.id == Builtin::WeightedPick, problem, at);
      for (const WeightedItem& item : items) {
        uint64_t v;
        if (problem.empty() && b.id == Builtin::WeightedU64 && !parse_u64(item.value, v))
          problem = "'" + item.value + "' is not a u64 value";
      }
      if (!problem.empty()) error(DiagKind::NotConstant, at, problem);
      const bool text = b.id == Builtin::WeightedStrings || b.id == Builtin::OneOfWeighted;
      return Typed{ETy::of(text ? Ty::str() : Ty::u64()), t.dynamic};
    }
    case Builtin::Pick: return check_pick(e);
    case Builtin::Identity: break;  // rewritten to its argument before checking
    case Builtin::InRange: case Builtin::IsOneOf: case Builtin::IsPositive: case Builtin::Matches:
      return check_assertion(e, b.id);
    case Builtin::StartOf: case Builtin::EndOf: case Builtin::IdxOf: case Builtin::Cardinality: case Builtin::ModIn:
    case Builtin::ClampIn: case Builtin::At: case Builtin::Partitions: case Builtin::CursorOver:
    case Builtin::CursorProblem: case Builtin::PartitionFirst:
      return check_partition_call(e, b.id);
    case Builtin::MixedRadix: {
      Typed t = check(arg(0));
      coerce(arg(0), t, Ty::u64(), true, "the value to split");
      std::vector<Ty> digits;
      for (size_t i = 1; i < e.args.size(); ++i) {
        if (!e.args[i].name.empty() && i > 1) {
          error(DiagKind::UnknownArgument, e.args[i].name_span, "mixed_radix takes its radixes by position");
          continue;
        }
        Expr& r = *arg(i);
        if (r.kind != ExprKind::Int || r.int_value < 0) {
          error(DiagKind::NotConstant, r.span, "a radix of mixed_radix must be a non-negative integer literal");
          continue;
        }
        Typed tr = check(arg(i));
        coerce(arg(i), tr, Ty::u64(), true, "a radix");
        digits.push_back(Ty::u64());
      }
      if (digits.size() + 1 != e.args.size() || digits.size() == 1) return Typed{ETy::of(Ty::u64()), t.dynamic};
      return Typed{ETy::of(Ty::tuple(std::move(digits))), t.dynamic};
    }
  }
  return Typed{ETy::of(Ty::u64()), false};
}

// The partition built-ins (frontend/cursors.h), each argument by its kind.
Typed UnitChecker::check_partition_call(Expr& e, Builtin b) {
  const std::string_view kinds = partition_arg_kinds(b);
  bool dyn = false;
  for (size_t i = 0; i < e.args.size() && i < kinds.size(); ++i) {
    ExprPtr& a = e.args[i].value;
    const Typed t = check(a);
    dyn = dyn || t.dynamic;
    const std::string what = "argument " + std::to_string(i + 1) + " of " + e.name;
    if (kinds[i] == 'n' || kinds[i] == 'S') {
      coerce(a, t, kinds[i] == 'n' ? Ty::u64() : Ty::str(), true, what);
    } else if (b != Builtin::CursorProblem &&  // its source is the one __cursor_over reports on
               (t.t.is_literal() || (!ir::is_partition(a->ty) && (kinds[i] == 'p' || !a->ty.is_str())))) {
      error(DiagKind::TypeMismatch, a->span,
            (kinds[i] == 'p' ? e.name + " takes a partition (a cursor's `.cursor`, or a variable of `for: \"p in partitions(...)\"`)"
                             : std::string("a cursor's `over` takes a partition spec (a str such as \"0..50%\") or a partition")) +
                ", not " + (t.t.is_literal() ? std::string("a number") : ir::ty_label(a->ty)));
    }
  }
  auto constant = [&](size_t i) { return i < e.args.size() ? known_constant(*e.args[i].value) : std::nullopt; };
  switch (b) {
    case Builtin::Partitions:
      error(DiagKind::TypeMismatch, e.span,
            "partitions(...) is a list of partitions, and a kernel's value holds one: iterate the list in the "
            "workload (`for: \"p in partitions(...)\"`), or narrow a cursor with `over partitions(...)`");
      return Typed{ETy::of(Ty::u64()), dyn};
    case Builtin::At:
      if (auto p = constant(0), i = constant(1); p && i)
        if (auto part = ir::as_partition(*p); part && i->as_u64() >= part->cardinality())
          error(DiagKind::LiteralOutOfRange, e.args[1].value->span,
                "at(partition, " + std::to_string(i->as_u64()) + "): the partition holds " +
                    std::to_string(part->cardinality()) + " ordinals, numbered from 0");
      break;
    case Builtin::PartitionFirst: case Builtin::CursorOver: {
      const bool first = b == Builtin::PartitionFirst;
      const auto spec = constant(0);
      if (first && (!spec || !constant(1))) {
        error(DiagKind::NotConstant, e.span, "the spec and the extent of `over partitions(...)` must be constants");
        break;
      }
      if (!spec || !spec->ty().is_str()) break;  // a partition, or a spec known only at run time
      const auto start = first ? std::optional(ir::Value::integer(TyKind::U64, 0)) : constant(1);
      const auto end = constant(first ? 1 : 2);
      if (!start || !end) break;
      const uint64_t extent = end->as_u64() > start->as_u64() ? end->as_u64() - start->as_u64() : 0;
      if (auto why = spec_problem(spec->as_str(), extent))
        error(DiagKind::BadPartitionSpec, e.args[0].value->span,
              "the partition spec \"" + spec->as_str() + "\" does not resolve against " + std::to_string(extent) +
                  " ordinals: " + *why);
      break;
    }
    default: break;
  }
  if (b == Builtin::CursorProblem) return Typed{ETy::of(Ty::str()), dyn};
  if (b == Builtin::CursorOver || b == Builtin::PartitionFirst) return Typed{ETy::of(ir::partition_ty()), dyn};
  return Typed{ETy::of(Ty::u64()), dyn};
}

// pick(b0..bN-1, v0..vN-1): selectors are conditions, values one type.
// Selectors all known when the kernel is built must have exactly one true
// (nb-rs stops the run otherwise); at run time the first true one wins.
Typed UnitChecker::check_pick(Expr& e) {
  const size_t n = e.args.size() / 2;
  if (e.args.size() < 2 || e.args.size() % 2 != 0) {
    error(DiagKind::ArgumentCount, e.span, "pick takes N selectors then N values: an even number of arguments, at least 2");
    for (Arg& a : e.args) check(a.value);
    return Typed{ETy::of(Ty::u64()), false};
  }
  bool dyn = false, all_known = true;
  size_t true_count = 0;
  for (size_t i = 0; i < n; ++i) {
    Typed t = check(e.args[i].value);
    dyn = dyn || t.dynamic;
    condition(e.args[i].value, t, "a selector of pick");
    const auto k = known_constant(*e.args[i].value);
    if (!k) all_known = false;
    else true_count += k->bits() != 0;
  }
  std::vector<Typed> ts;
  std::optional<ETy> common;
  for (size_t i = n; i < e.args.size(); ++i) {
    ts.push_back(check(e.args[i].value));
    dyn = dyn || ts.back().dynamic;
    if (!common) {
      common = ts.back().t;
      continue;
    }
    if (common->ty.is_str() && ts.back().t.ty.is_str()) continue;
    const Unified u = unify(*common, ts.back().t);
    if (!u.ty) {
      error(u.signed_unsigned ? DiagKind::SignedUnsignedMix : DiagKind::TypeMismatch, e.args[i].value->span,
            "the values of pick must have one type: " + u.error);
      return Typed{ETy::of(Ty::u64()), dyn};
    }
    common = ETy::of(*u.ty);
  }
  if (!common->ty.is_str())
    for (size_t i = n; i < e.args.size(); ++i) coerce(e.args[i].value, ts[i - n], common->ty, false, "");
  if (all_known && true_count != 1)
    error(DiagKind::AssertionFailed, e.span,
          true_count == 0 ? "pick: no selector is true" : "pick: " + std::to_string(true_count) + " selectors are true");
  return Typed{ETy::of(common->ty), dyn};
}

// nb-rs's parameter assertions: every argument a constant, the assertion
// decided when the kernel is built; the result is the input.
Typed UnitChecker::check_assertion(Expr& e, Builtin b) {
  const bool text = b == Builtin::Matches;
  std::vector<ir::Value> k;
  for (size_t i = 0; i < e.args.size(); ++i) {
    ExprPtr& a = e.args[i].value;
    const Typed t = check(a);
    const bool str_arg = text || (b == Builtin::IsPositive && i == 1);
    coerce(a, t, str_arg ? Ty::str() : Ty::u64(), true, "argument " + std::to_string(i + 1) + " of " + e.name);
    auto v = known_constant(*a);
    if (!v) {
      error(DiagKind::NotConstant, a->span, e.name + " checks a value known when the kernel is built: this must be a constant");
      return Typed{ETy::of(text ? Ty::str() : Ty::u64()), false};
    }
    k.push_back(*v);
  }
  const Typed result{ETy::of(text ? Ty::str() : Ty::u64()), false};
  std::string failed;
  if (b == Builtin::InRange) {
    const uint64_t v = k[0].as_u64(), lo = k[1].as_u64(), hi = k[2].as_u64();
    if (v < lo || v > hi) failed = "in_range: value " + std::to_string(v) + " outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  } else if (b == Builtin::IsOneOf) {
    if (std::none_of(k.begin() + 1, k.end(), [&](const ir::Value& a) { return a.as_u64() == k[0].as_u64(); }))
      failed = "is_one_of: value " + std::to_string(k[0].as_u64()) + " is not one of the allowed values";
  } else if (b == Builtin::IsPositive) {
    if (k[0].as_u64() == 0) failed = "is_positive(" + k[1].as_str() + "): value must be > 0, got 0";
  } else if (auto why = ir::regex_error(k[1].as_str())) {
    error(DiagKind::InvalidPattern, e.args[1].value->span, "invalid regex '" + k[1].as_str() + "': " + *why);
  } else if (!ir::regex_is_match(k[1].as_str(), k[0].as_str())) {
    failed = "matches: value \"" + k[0].as_str() + "\" does not match pattern \"" + k[1].as_str() + "\"";
  }
  if (!failed.empty()) error(DiagKind::AssertionFailed, e.args[0].value->span, failed);
  return result;
}

}  // namespace polydat::frontend::check_detail
