// Internal to frontend/ (not its API): the checker class behind check_program and the state
// its phases share, each phase defined in a file of its own (check.cc and check_*.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "frontend/program.h"
#include "frontend/typing_rules.h"

namespace polydat::frontend::check_detail {

using ir::Ty;
using ir::TyKind;

// What an expression is, before it meets its context.
struct Typed {
  ETy t;
  bool dynamic = false;  // depends on an input
};

class UnitChecker {
 public:
  UnitChecker(Program& p, size_t ui) : p_(p), ui_(ui), u_(p.units[ui]) {}

  void run();

 private:
  struct Entry {
    enum class Kind : uint8_t { Input, Extern, Param, Binding, Part } kind;
    Stmt* stmt = nullptr;  // Binding, Part
    size_t part = 0;       // Part: position in its destructuring
    Port* port = nullptr;  // Input, Extern, Param: filled in signature
    Span span;
    Ty ty;
    bool typed = false;
    bool dynamic = false;
    bool referenced = false;  // read by another binding (so not an output)
    bool zero_one = false;    // an integer known to be 0 or 1 (see zero_or_one)
  };
  struct Local {
    Ty ty;
    bool dynamic = false;
    bool is_var = false;  // a loop variable (assignable in its own loop)
    int loop = 0;         // the loop it belongs to
    bool zero_one = false;  // a body binding known to be 0 or 1 (see zero_or_one)
  };

  Diagnostics& diags() { return p_.diags; }
  void error(DiagKind k, Span s, std::string m) { diags().error(k, s, std::move(m)); }

  // check_names.cc: the unit scope, what each binding reads, inferred inputs, binding order.
  bool declare(const std::string& name, Entry e);
  void collect_scope();
  void references(const Expr& root, std::vector<std::pair<std::string, Span>>& out);
  void collect_references();
  std::set<std::string> inferred_constant_names(const std::vector<std::pair<std::string, Span>>& unbound,
                                                const std::set<std::string>& body_locals);
  void order_bindings();
  Typed check_name(Expr& e);
  bool visible_local(const std::string& name) const;

  // check.cc: the unit's statements and its signature.
  void check_statement(Stmt& s);
  void check_combine(const Stmt& s, const Ty& ty);
  void check_destructure(Stmt& s, std::optional<size_t> local_scope);
  void type_externs_and_defaults();
  void finish_signature();
  bool module_library() const;
  Port output_port(const std::string& name, const Entry& e);
  const std::set<const Stmt*>& volatile_reach();
  void select_outputs(const std::vector<std::string>& names);
  std::vector<std::string> default_outputs(bool report);
  std::vector<std::string> binding_names() const;
  std::string unknown_request_message(const std::string& name);

  // check_exprs.cc: constants known when the kernel is built, and the typing of expressions.
  bool value_of_caller(const Expr& arg, const std::string& what);
  void check_constant_expr(const Expr& e, const char* what);
  std::optional<ir::Value> known_constant(const Expr& e, int depth = 0);
  Typed literal_int(Expr& e);
  Typed check(ExprPtr& ep);
  void coerce(ExprPtr& ep, const Typed& t, const Ty& to, bool declared, const std::string& context);
  void mismatch(const Expr& e, const Ty& from, const Ty& to, const std::string& context);
  void wrap_cast(ExprPtr& ep, const Ty& to);
  Typed check_string(Expr& e);
  Typed check_unary(ExprPtr& ep);
  std::optional<Ty> unify_operands(ExprPtr& a, const Typed& ta, ExprPtr& b, const Typed& tb, Span at);
  bool integer_operand(ExprPtr& x, const Typed& t, bool must_be_unsigned, const char* role, Span at);
  void check_zero_divisor(const Expr& divisor, Span at);
  Typed arithmetic(Tok op, ExprPtr& a, ExprPtr& b, Span at);
  Typed check_binary(ExprPtr& ep);
  bool zero_or_one(const Expr& e) const;
  bool name_is_zero_one(const std::string& name) const;
  void to_bool(ExprPtr& ep);
  Typed check_cast(Expr& e);
  Typed check_table(Expr& e);
  Typed check_if(Expr& e);
  void condition(ExprPtr& c, const Typed& t, const char* role);

  // check_calls.cc: arguments to parameters, module calls, library functions, table-sampling calls.
  std::optional<std::vector<Arg*>> bind_args(Expr& call, const std::vector<std::string>& params, bool variadic);
  bool fold_variadic(ExprPtr& ep);
  Typed check_call(Expr& e);
  Typed check_distribution(Expr& e, const DistributionInfo& d);
  void f64_argument(ExprPtr& a, const Typed& t, const std::string& what);
  Typed check_sampled(Expr& e, const SampledFunction& f);
  Typed check_table_call(Expr& e, std::string_view table_name, bool u64_input,
                         std::span<const DistributionParam> params, size_t table_params, const Ty& result,
                         SampleFinish finish = SampleFinish::None);
  Typed check_library(Expr& e, uint32_t fn);

  // check_builtins.cc: the built-in functions, partitions, pick and the parameter assertions.
  void drop_combinations_length(Expr& e);
  void fill_assertion_defaults(Expr& e, Builtin b);
  Typed check_builtin(Expr& e, const BuiltinInfo& b);
  Typed check_partition_call(Expr& e, Builtin b);
  Typed check_pick(Expr& e);
  Typed check_assertion(Expr& e, Builtin b);

  // check_loops.cc: loop expressions and the scopes of their bodies.
  Typed check_loop(Expr& e);
  bool reads_loop_variable(const Expr& root, const std::map<std::string, Local>& vars) const;
  bool check_loop_statement(Stmt& s, int loop);

  Program& p_;
  size_t ui_;
  Unit& u_;
  std::map<std::string, Entry> scope_;
  std::vector<std::string> names_in_order_;
  std::vector<Stmt*> bindings_;
  std::vector<Stmt*> externs_;
  std::vector<Stmt*> outputs_listed_;
  std::map<Stmt*, std::vector<std::string>> deps_;
  std::set<std::string> reported_unknown_;
  std::vector<std::map<std::string, Local>> locals_;
  int loop_depth_ = 0;
  bool has_inputs_ = false;
  std::optional<std::set<const Stmt*>> volatile_reach_;
};

}  // namespace polydat::frontend::check_detail
