#include "frontend/weights.h"

#include <charconv>
#include <cmath>

namespace polydat::frontend {

namespace {
std::string_view trim(std::string_view s) {
  const size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string_view::npos) return {};
  return s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1);
}

// Rust's f64 parse: an optional sign, then digits, a point, an exponent, or inf/nan words.
bool parse_f64(std::string_view text, double& out) {
  if (text.empty() || text.front() == ' ' || text.back() == ' ') return false;
  std::string_view t = text;
  if (t.front() == '+') t.remove_prefix(1);
  const auto r = std::from_chars(t.data(), t.data() + t.size(), out);
  return r.ec == std::errc() && r.ptr == t.data() + t.size();
}
// The first character of `text` that cannot be part of a number (or "" when there is none), named for a
// message: a separator the spec does not take is the usual reason a weight does not parse.
std::string found_hint(std::string_view text, std::string_view number_chars) {
  const size_t i = text.find_first_not_of(number_chars);
  if (i == std::string_view::npos) return "";
  if (text[i] == ' ') return " (found a space)";
  if (text[i] == '\t') return " (found a tab)";
  return " (found '" + std::string(1, text[i]) + "')";
}

constexpr std::string_view kWeightChars = "0123456789.eE+-infatyINFATY";
constexpr std::string_view kWeightSeparators = "items are separated by ';' or ',', and each is value:weight";
constexpr std::string_view kHistSeparators = "elements are separated by a space, ',' or ';'";
}  // namespace

std::vector<std::optional<uint64_t>> cdf_thresholds(const std::vector<double>& weights) {
  double total = 0;
  for (double w : weights) total += w;
  std::vector<double> cumulative;
  double running = 0;
  for (double w : weights) cumulative.push_back(running += w / total);
  cumulative.back() = 1.0;
  std::vector<std::optional<uint64_t>> out;
  for (size_t i = 0; i + 1 < cumulative.size(); ++i) {
    const auto quotient = [](uint64_t h) { return static_cast<double>(h) / 18446744073709551616.0; };
    if (!(quotient(~uint64_t{0}) > cumulative[i])) {
      out.push_back(std::nullopt);
      continue;
    }
    uint64_t lo = 0, hi = ~uint64_t{0};  // the quotient grows with h
    while (lo < hi) {
      const uint64_t mid = lo + (hi - lo) / 2;
      if (quotient(mid) > cumulative[i]) hi = mid;
      else lo = mid + 1;
    }
    out.push_back(lo);
  }
  return out;
}

bool parse_u64(std::string_view text, uint64_t& out) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return false;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), out, 10);
  return r.ec == std::errc() && r.ptr == text.data() + text.size();
}

std::vector<WeightedItem> parse_weight_spec(std::string_view spec, std::string& error) {
  std::vector<WeightedItem> items;
  size_t at = 0;
  while (at <= spec.size()) {
    const size_t end = spec.find_first_of(";,", at);
    const std::string_view item = trim(spec.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
    at = end == std::string_view::npos ? spec.size() + 1 : end + 1;
    if (item.empty()) continue;
    const size_t colon = item.find(':');
    if (colon == std::string_view::npos) {
      error = "expected value:weight, found '" + std::string(item) + "' (no ':'); " + std::string(kWeightSeparators);
      return {};
    }
    WeightedItem w{std::string(item.substr(0, colon)), 0};
    if (!parse_f64(item.substr(colon + 1), w.weight)) {
      error = "the weight of '" + std::string(item) + "' is not a number" +
              found_hint(trim(item.substr(colon + 1)), kWeightChars) + "; " + std::string(kWeightSeparators);
      return {};
    }
    if (!std::isfinite(w.weight) || w.weight <= 0) {
      error = "the weight of '" + std::string(item) + "' must be above 0";
      return {};
    }
    items.push_back(std::move(w));
  }
  if (items.empty()) error = "the spec has no 'value:weight' item";
  return items;
}

std::vector<WeightedItem> parse_histribution_spec(std::string_view spec, std::string& error) {
  const bool labelled = spec.find(':') != std::string_view::npos;
  std::vector<WeightedItem> items;
  bool positive = false;
  size_t at = 0;
  for (uint64_t position = 0; at <= spec.size(); ++position) {
    const size_t end = spec.find_first_of(" ,;", at);
    const std::string_view elem = trim(spec.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
    at = end == std::string_view::npos ? spec.size() + 1 : end + 1;
    if (elem.empty()) continue;
    const size_t colon = elem.find(':');
    if (labelled && colon == std::string_view::npos) {
      error = "every element must be labelled ('label:weight') once one is, not '" + std::string(elem) + "'; " +
              std::string(kHistSeparators);
      return {};
    }
    WeightedItem w{labelled ? std::string(elem.substr(0, colon)) : std::to_string(position), 0};
    uint64_t label = 0;
    if (labelled && !parse_u64(w.value, label)) {
      error = "the label '" + w.value + "' is not a u64" + found_hint(w.value, "0123456789+") + "; " +
              std::string(kHistSeparators) + ", a label from its weight by ':'";
      return {};
    }
    if (!parse_f64(labelled ? elem.substr(colon + 1) : elem, w.weight) || !std::isfinite(w.weight) || w.weight < 0) {
      error = "the weight of '" + std::string(elem) + "' must be a number, 0 or above" +
              found_hint(labelled ? elem.substr(colon + 1) : elem, kWeightChars) + "; " + std::string(kHistSeparators);
      return {};
    }
    positive = positive || w.weight > 0;
    items.push_back(std::move(w));
  }
  if (!positive) error = items.empty() ? "the spec has no element" : "the spec's weights are all 0";
  return items;
}


uint64_t coin_threshold(double bias) {
  // The least h with h / 4294967295.0 >= bias; the quotient grows with h.
  uint64_t lo = 0, hi = uint64_t{1} << 32;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (static_cast<double>(mid) / 4294967295.0 >= bias) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

std::optional<std::string> literal_text(const Expr& e) {
  if (e.kind != ExprKind::Str) return std::nullopt;
  std::string text;
  for (const StringPart& p : e.parts) {
    if (p.is_expr) return std::nullopt;
    text += p.text;
  }
  return text;
}

std::vector<CombinationPiece> combination_pieces(std::string_view pattern) {
  std::vector<CombinationPiece> pieces;
  size_t at = 0;
  while (at <= pattern.size()) {
    const size_t end = pattern.find(';', at);
    const std::string_view piece = pattern.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
    at = end == std::string_view::npos ? pattern.size() + 1 : end + 1;
    CombinationPiece p;
    for (size_t i = 0; i < piece.size();) {
      if (i + 2 < piece.size() && piece[i + 1] == '-') {
        for (int c = static_cast<unsigned char>(piece[i]); c <= static_cast<unsigned char>(piece[i + 2]); ++c)
          p.chars.emplace_back(1, static_cast<char>(c));
        i += 3;
      } else {
        p.chars.emplace_back(1, piece[i]);
        ++i;
      }
    }
    if (p.chars.empty() || (p.chars.size() == 1 && piece.find('-') == std::string_view::npos)) {
      p.literal = true;
      p.text = p.chars.empty() ? std::string(piece) : p.chars.front();
      p.chars.clear();
    }
    pieces.push_back(std::move(p));
  }
  return pieces;
}

std::vector<WeightedItem> weighted_call_items(const Expr& call, bool pick, std::string& error, Span& at) {
  at = call.span;
  if (!pick) {
    if (call.args.size() < 2 || !call.args[1].value) return {};
    const Expr& spec = *call.args[1].value;
    at = spec.span;
    const std::optional<std::string> text = literal_text(spec);
    if (!text) {
      error = "the spec must be a string literal (it is read when the kernel is built)";
      return {};
    }
    auto items = call.name == "histribution" ? parse_histribution_spec(*text, error) : parse_weight_spec(*text, error);
    if (!error.empty()) error = call.name + "'s spec: " + error;  // which call's spec, when a line has several
    return items;
  }
  std::vector<WeightedItem> items;
  if (call.args.size() < 3 || call.args.size() % 2 == 0) {
    error = "weighted_pick takes the value to choose by, then weight, value pairs";
    return {};
  }
  for (size_t i = 1; i + 1 < call.args.size(); i += 2) {
    const Expr& w = *call.args[i].value;
    const Expr& v = *call.args[i + 1].value;
    at = w.span;
    const double weight = w.kind == ExprKind::Float ? w.float_value : static_cast<double>(w.int_value);
    if ((w.kind != ExprKind::Float && w.kind != ExprKind::Int) || !std::isfinite(weight) || weight <= 0) {
      error = "a weight of weighted_pick must be a number literal above 0";
      return {};
    }
    at = v.span;
    if (v.kind != ExprKind::Int || v.int_value < 0 || v.int_value > static_cast<__int128>(~uint64_t{0})) {
      error = "a value of weighted_pick must be a u64 literal";
      return {};
    }
    items.push_back(WeightedItem{std::to_string(static_cast<uint64_t>(v.int_value)), weight});
  }
  return items;
}

}  // namespace polydat::frontend
