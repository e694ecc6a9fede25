// Regular expressions for the library's regex functions: nb-rs's Rust-regex
// behaviour (leftmost-first matches, Unicode classes, `$` only at the end,
// Rust's replacement syntax) through PCRE2, a maintained engine.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace polydat::ir {

// Why the pattern does not compile (PCRE2's message and offset), or nullopt.
std::optional<std::string> regex_error(std::string_view pattern);
// Whether the pattern matches anywhere in the text (an invalid pattern never matches).
bool regex_is_match(std::string_view pattern, std::string_view text);
// Every non-overlapping match replaced, as Rust's Regex::replace_all: `$1`,
// `${1}`, `$name`, `${name}` expand to a group (empty when it did not take
// part or does not exist), `$$` is one `$`.
std::string regex_replace_all(std::string_view pattern, std::string_view text, std::string_view replacement);

}  // namespace polydat::ir
