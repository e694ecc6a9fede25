// Library functions the software engines run as one operation (OpKind::LibFn):
// text codecs and digests whose work is a loop over bytes. One registry, so
// the interpreter, the constant folder and the LLVM runtime call the same code.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ir/value.h"

namespace polydat::ir {

// The type of a library function's parameter or result.
// Any: a scalar of any type (integer, bool, float, str), as its Value.
enum class LibTy : uint8_t { U64, F64, Str, Any, Bool };

struct LibraryFn {
  std::string_view name;  // the name kernels call it by (nb-rs's)
  std::vector<LibTy> params;
  std::vector<std::string_view> param_names;  // as `polydat functions` shows them
  LibTy result;
  bool variadic = false;  // the last parameter repeats, zero or more times
  std::string_view help;  // one line
  // Pure, deterministic and total: every input gives a value, never throws.
  // Arguments arrive as Values of params' types (u64, f64, str).
  Value (*eval)(std::span<const Value> args);
  // Bit i set: parameter i is fixed when the kernel is built (nb-rs's init-time
  // constants, such as a regex pattern); the checker asks for a constant.
  uint32_t constant_params = 0;
  // Why a constant parameter's value is refused (nullopt: accepted).
  std::optional<std::string> (*check_constant)(size_t param, const Value& v) = nullptr;
};

// Every library function, in a fixed order: an index is its id in the IR.
std::span<const LibraryFn> library_fns();
std::optional<uint32_t> find_library_fn(std::string_view name);

// The IR type of a parameter or result (Any as str: only for parameters).
Ty library_ty(LibTy t);
bool library_admits(LibTy want, const Ty& t);
// A LibFn edge's source: the one argument, or the product of several (none: a
// zero-argument call takes the unit). The target type, or nullopt when the
// arguments do not fit the parameters.
std::optional<Ty> library_result(uint32_t fn, const Ty& source);
// The argument types of such a source, in order.
std::vector<Ty> library_args(const Ty& source);
// The function applied to its argument (or product of arguments).
Value eval_library(uint32_t fn, const Value& arg);

// What a program that runs library functions links besides the C++ library
// (OpenSSL's digests, PCRE2's regexes).
inline constexpr std::string_view kLibraryLinkFlags = "-lcrypto -lpcre2-8";

// The families library_fns() joins, each defined in its own file.
std::span<const LibraryFn> text_library_fns();  // library_text.cc
std::span<const LibraryFn> partition_library_fns();  // library_partition.cc

}  // namespace polydat::ir
