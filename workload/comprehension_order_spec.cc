// Order specs: `NAME`, `NAME/N`, and `NAME(KEY=VALUE, ...)` (nb-rs's three
// forms), with every key checked: a key a strategy does not take is an error.
#include <map>

#include "workload/comprehension_detail.h"

namespace polydat::workload::comprehension::detail {

namespace {

struct Named {
  std::string_view name;
  Strategy strategy;
};
constexpr Named kStrategies[] = {
    {"lex", Strategy::Lex},       {"reverse_lex", Strategy::ReverseLex}, {"diagonal", Strategy::Diagonal},
    {"antidiagonal", Strategy::Antidiagonal}, {"extrema", Strategy::Extrema}, {"shells", Strategy::Shells},
    {"halton", Strategy::Halton}, {"sobol", Strategy::Sobol},           {"lhs", Strategy::Lhs},
    {"custom", Strategy::Custom},
};

std::optional<Strategy> strategy_named(std::string_view name) {
  for (const Named& n : kStrategies)
    if (n.name == name) return n.strategy;
  return std::nullopt;
}

std::string unknown_strategy(std::string_view name) {
  std::string all;
  for (const Named& n : kStrategies) all += (all.empty() ? "" : ", ") + std::string(n.name);
  return "`" + std::string(name) + "` is not an order (" + all + ", space_filling)";
}

// The key of the `/N` and of `N=` for a strategy.
std::string_view limit_key(Strategy s) {
  return s == Strategy::Extrema ? "strata" : s == Strategy::Shells ? "depth" : "count";
}

struct Arg {
  std::string key;  // empty: positional
  std::string value;
  size_t offset;
};

Result<std::vector<Arg>> keyword_args(Piece body) {
  std::vector<Arg> out;
  if (body.text.empty()) return out;
  for (const Piece& p : split_commas(body.text)) {
    const size_t at = body.offset + p.offset;
    if (p.text.empty()) return Failure{"bad-spec", "an empty argument in an order", at};
    Arg a{"", std::string(p.text), at};
    if (const size_t eq = p.text.find('='); eq != std::string_view::npos) {
      a.key = std::string(trimmed(p.text.substr(0, eq)).text);
      a.value = std::string(trimmed(p.text.substr(eq + 1)).text);
      if (!is_identifier(a.key)) return Failure{"bad-spec", "`" + a.key + "` is not an argument name", at};
    }
    if (a.value.size() >= 2 && (a.value[0] == '"' || a.value[0] == '\'') && a.value.back() == a.value[0])
      a.value = a.value.substr(1, a.value.size() - 2);
    out.push_back(std::move(a));
  }
  return out;
}

Result<uint64_t> whole(const Arg& a) {
  if (auto n = parse_u64(a.value)) return *n;
  return Failure{"bad-spec", "`" + a.key + "` of an order is a whole number, not `" + a.value + "`", a.offset};
}

// The keyword form; `name` is the strategy (or space_filling) before the parenthesis.
Result<Order> keyword_order(std::string_view name, std::vector<Arg> args, size_t name_at) {
  Order o;
  std::vector<Arg> positional;
  std::map<std::string, Arg> keyed;
  for (Arg& a : args) {
    if (a.key.empty()) positional.push_back(a);
    else if (!keyed.emplace(a.key, a).second) return Failure{"bad-spec", "`" + a.key + "` given twice", a.offset};
  }
  if (name == "space_filling") {  // space_filling(halton|sobol|lhs, count=N[, seed=N])
    if (positional.empty()) return Failure{"bad-spec", "space_filling needs its strategy: halton, sobol or lhs", name_at};
    const auto s = strategy_named(positional[0].value);
    if (!s || (*s != Strategy::Halton && *s != Strategy::Sobol && *s != Strategy::Lhs))
      return Failure{"bad-spec", "space_filling takes halton, sobol or lhs, not `" + positional[0].value + "`",
                     positional[0].offset};
    o.strategy = *s;
    positional.erase(positional.begin());
  } else if (const auto s = strategy_named(name)) {
    o.strategy = *s;
  } else {
    return Failure{"bad-spec", unknown_strategy(name), name_at};
  }
  if (o.strategy == Strategy::Custom) {  // custom(FUNCTION)
    if (positional.size() != 1 || !keyed.empty() || !is_identifier(positional[0].value))
      return Failure{"bad-spec", "custom takes one function name: `custom(NAME)`", name_at};
    o.function = positional[0].value;
    return o;
  }
  if (!positional.empty())
    return Failure{"bad-spec", "an order's arguments are KEY=VALUE, not `" + positional[0].value + "`",
                   positional[0].offset};
  std::vector<std::string_view> allowed{limit_key(o.strategy)};
  if (o.strategy == Strategy::Shells) allowed.push_back("origin");
  if (o.strategy == Strategy::Lhs) allowed.push_back("seed");
  for (auto& [key, a] : keyed) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string list;
      for (auto k : allowed) list += (list.empty() ? "" : ", ") + std::string(k);
      return Failure{"bad-spec", "order " + std::string(strategy_name(o.strategy)) + " takes " + list + "; not `" +
                                     key + "`",
                     a.offset};
    }
    if (key == "origin") {
      if (a.value == "outer") o.origin = ShellOrigin::Outer;
      else if (a.value == "center") o.origin = ShellOrigin::Center;
      else if (a.value == "corner") o.origin = ShellOrigin::Corner;
      else return Failure{"bad-spec", "shells' origin is outer, center or corner, not `" + a.value + "`", a.offset};
      continue;
    }
    auto n = whole(a);
    if (!n) return n.error();
    (key == "seed" ? o.seed : o.limit) = *n;
  }
  return o;
}

Result<Order> order_of(Piece t) {
  if (t.text.empty()) return Failure{"bad-spec", "an empty order", t.offset};
  if (t.text.find('(') != std::string_view::npos) {
    const auto call = call_of(t.text);
    if (!call) return Failure{"bad-spec", "an order reads NAME, NAME/N or NAME(KEY=VALUE, ...)", t.offset};
    auto args = keyword_args(Piece{call->second.text, t.offset + call->second.offset});
    if (!args) return args.error();
    return keyword_order(call->first, std::move(*args), t.offset);
  }
  Order o;
  std::string_view name = t.text;
  if (const size_t slash = t.text.find('/'); slash != std::string_view::npos) {
    name = trimmed(t.text.substr(0, slash)).text;
    const Piece n = trimmed(t.text.substr(slash + 1), t.offset + slash + 1);
    const auto v = parse_u64(n.text);
    if (!v) return Failure{"bad-spec", "the `/N` of an order is a whole number, not `" + std::string(n.text) + "`", n.offset};
    o.limit = *v;
  }
  const auto s = strategy_named(name);
  if (!s) return Failure{"bad-spec", unknown_strategy(name), t.offset};
  if (*s == Strategy::Custom) return Failure{"bad-spec", "custom names its function: `custom(NAME)`", t.offset};
  o.strategy = *s;
  return o;
}

}  // namespace

std::string_view strategy_name(Strategy s) {
  for (const Named& n : kStrategies)
    if (n.strategy == s) return n.name;
  return "?";
}

bool needs_lattice(Strategy s) { return s != Strategy::Lex && s != Strategy::Custom; }

ir::Expected<Order, SpecError> parse_order_at(std::string_view text, Place base) {
  auto o = order_of(trimmed(text));
  if (!o) return located(o.error(), base);
  o->at = shifted(base, trimmed(text).offset);
  return std::move(*o);
}

}  // namespace polydat::workload::comprehension::detail
