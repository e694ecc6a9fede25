#include "frontend/legacy_chain.h"

#include <cctype>
#include <vector>

namespace polydat::frontend {

namespace {

// nb-rs's renames of Java nosqlbench functions (matched without case); any
// other name is lower-cased. `extra` is an argument nb-rs appends.
struct Rename {
  std::string_view legacy, gk, extra;
};
constexpr Rename kRenames[] = {
    {"tostring", "format_u64", "10"},     {"to_string", "format_u64", "10"}, {"tohexstring", "format_u64", "16"},
    {"tooctalstring", "format_u64", "8"}, {"tobinarystring", "format_u64", "2"},
    {"uniform", "hash_range", ""},        {"normal", "icd_normal", ""},      {"gaussian", "icd_normal", ""},
    {"zipf", "dist_zipf", ""},            {"hashrange", "hash_range", ""},   {"hashinterval", "hash_interval", ""},
    {"format", "printf", ""},             {"numbernamesto_string", "number_to_words", ""},
    {"numbernames", "number_to_words", ""},
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool is_name(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

// [begin, end) of `text` without the spaces at either end.
std::pair<size_t, size_t> trimmed(std::string_view text, size_t begin, size_t end) {
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return {begin, end};
}

// The offsets of the separators `sep` in [begin, end) that nb-rs splits at:
// every `;`; a `,` outside '...' (nb-rs tracks no other quote). One inside
// quotes of either kind is refused, as nb-rs would cut a string there.
ir::Expected<std::vector<size_t>, ChainError> separators(std::string_view text, size_t begin, size_t end, char sep) {
  std::vector<size_t> out;
  char quote = 0;
  for (size_t i = begin; i < end; ++i) {
    const char c = text[i];
    if (quote != 0) {
      const bool kept = sep == ',' && quote == '\'';  // the one separator nb-rs does not cut a string at
      if (c == quote) quote = 0;
      else if (c == sep && !kept)
        return ChainError{i, std::string("nb-rs splits a chain at every '") + sep +
                                 (sep == ',' ? "' outside '...' quotes" : "'") +
                                 ", even this one inside a string; write the binding as GK in a `|` block instead"};
      continue;
    }
    if (c == '\'' || c == '"') quote = c;
    else if (c == sep) out.push_back(i);
  }
  if (quote != 0) return ChainError{end, "this string is never closed"};
  return out;
}

// `Name(a, b)` or `Name`, applied to `previous`: the GK call.
ir::Expected<std::string, ChainError> step_call(std::string_view text, size_t begin, size_t end,
                                                const std::string& previous) {
  const size_t open = text.substr(0, end).find('(', begin);
  const auto [nb, ne] = trimmed(text, begin, open == std::string_view::npos ? end : open);
  const std::string_view name = text.substr(nb, ne - nb);
  if (!is_name(name))
    return ChainError{nb, "a chain step is a function name with its arguments, as `Mod(1000)`; '" + std::string(name) +
                              "' is not a name"};
  std::string gk = lower(name), extra;
  for (const Rename& r : kRenames)
    if (r.legacy == gk) {
      gk = r.gk;
      extra = r.extra;
    }
  std::string call = gk + "(" + previous;
  if (open != std::string_view::npos) {
    const auto [ab, ae] = trimmed(text, open + 1, end);
    if (ae == ab || text[ae - 1] != ')') return ChainError{ae, "this step's '(' is never closed with ')'"};
    for (size_t i = ab; i + 1 < ae; ++i)
      if (text[i] == '(' || text[i] == ')')
        return ChainError{i, "a chain step's arguments are constants, with no calls or parentheses in them (nb-rs "
                             "cuts such a step apart); write the binding as GK in a `|` block instead"};
    auto commas = separators(text, ab, ae - 1, ',');
    if (!commas) return commas.error();
    const auto [inner_b, inner_e] = trimmed(text, ab, ae - 1);
    if (inner_b < inner_e) {
      commas->push_back(ae - 1);
      size_t from = ab;
      for (size_t c : *commas) {
        auto [b, e] = trimmed(text, from, c);
        if (b == e) return ChainError{b, "an empty argument"};
        if (text[e - 1] == 'L' || text[e - 1] == 'l') --e;  // Java's long suffix, as nb-rs strips it
        call += ", " + std::string(text.substr(b, e - b));
        from = c + 1;
      }
    }
  }
  if (!extra.empty()) call += ", " + extra;
  return call + ")";
}

}  // namespace

ir::Expected<std::string, ChainError> legacy_chain_to_gk(std::string_view name, std::string_view chain) {
  auto semis = separators(chain, 0, chain.size(), ';');
  if (!semis) return semis.error();
  semis->push_back(chain.size());
  std::vector<std::pair<size_t, size_t>> steps;
  size_t from = 0;
  for (size_t s : *semis) {
    const auto step = trimmed(chain, from, s);
    if (step.first < step.second) steps.push_back(step);  // nb-rs skips empty steps
    from = s + 1;
  }
  if (steps.empty()) return ChainError{0, "empty binding expression for '" + std::string(name) + "'"};
  std::string out, previous = "cycle";
  for (size_t i = 0; i < steps.size(); ++i) {
    const std::string target =
        i + 1 == steps.size() ? std::string(name) : "__chain_" + std::string(name) + "_" + std::to_string(i);
    auto call = step_call(chain, steps[i].first, steps[i].second, previous);
    if (!call) return call.error();
    out += (i ? "; " : "") + target + " := " + *call;
    previous = target;
  }
  return out;
}

bool looks_like_legacy_chain(std::string_view text) {
  char quote = 0;
  int depth = 0;
  for (char c : text) {
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (c == ';' && depth <= 0) {
      return true;
    }
  }
  return false;
}

}  // namespace polydat::frontend
