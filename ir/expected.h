// A value or an error, for APIs whose rejections are values (g++ 12 has no std::expected).
#pragma once

#include <utility>
#include <variant>

namespace polydat::ir {

template <class T, class E>
class [[nodiscard]] Expected {
 public:
  Expected(T v) : v_(std::in_place_index<0>, std::move(v)) {}  // NOLINT: implicit by design
  Expected(E e) : v_(std::in_place_index<1>, std::move(e)) {}  // NOLINT: implicit by design

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  const E& error() const { return std::get<1>(v_); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, E> v_;
};

struct Unit {};

template <class E>
class [[nodiscard]] Expected<void, E> {
 public:
  Expected() = default;
  Expected(E e) : e_(std::move(e)), ok_(false) {}  // NOLINT: implicit by design
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const E& error() const { return e_; }

 private:
  E e_{};
  bool ok_ = true;
};

}  // namespace polydat::ir
