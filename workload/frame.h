// The runner's scopes at run time. A frame is one activation of a scope: the
// workload, a loop, one iteration, one phase run. It holds the values the
// scope adds (loop variables, params), its view of every shared cell it can
// see, and, when the scope has bindings, a kernel of its own on the compiled
// scope module. Names resolve from the innermost frame outwards; a frame's
// kernel reads the outer values it imports once at its start, and the ones
// that change per cycle every cycle.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "frontend/embed.h"
#include "ir/expected.h"
#include "ir/value.h"
#include "sim/llvm/native_kernel.h"
#include "workload/subcontext.h"

namespace polydat::workload {

// A scope module compiled for one engine; frames run forks of its kernel.
struct CompiledScope {
  ScopeModule module;
  embed::Kernel prototype;
  std::map<std::string, size_t> output_index;
  std::vector<size_t> write_output;  // per write-through: its output's index
  std::shared_ptr<const sim::NativeKernel> native;  // with the native engine: for phases run in batches
};

enum class Seeding : uint8_t {
  Inherit,  // the parent's cells as they are now
  Clean,    // the parent's cells as they were when the parent began
};

using RunError = std::string;  // a rendered message

class Frame {
 public:
  Frame(Frame* parent, std::string label, Seeding seeding);
  Frame(const Frame&) = delete;
  Frame& operator=(const Frame&) = delete;

  Frame* parent() const { return parent_; }
  const std::string& label() const { return label_; }
  // How it took its cells from its parent; which activation it is (unique in the process).
  Seeding seeding() const { return seeding_; }
  uint64_t serial() const { return serial_; }
  // Its own variables, and its kernel's once-per-scope imports as bound.
  const std::map<std::string, ir::Value>& vars() const { return vars_; }
  const std::map<std::string, ir::Value>& bound() const { return bound_; }
  // A shared cell here (not shadowed by a variable).
  bool is_cell(const std::string& name) const;
  // Names visible here: the parent's, then what this frame adds.
  const Manifest& visible() const { return visible_; }

  // A loop variable, counter or param of this frame.
  void set_var(const std::string& name, ir::Value v, Mark at = {});
  // The variable (loop variable, counter, param) `name` of this frame or an outer one.
  const ir::Value* find_var(const std::string& name) const;
  // Gives the frame a kernel: binds its once-per-scope imports from the
  // outer frames and declares its cells (at their initial values).
  ir::Expected<void, RunError> attach(std::shared_ptr<const CompiledScope> scope);
  bool has_kernel() const { return kernel_.has_value(); }
  // What the kernel's extern `name` holds now: a bound import, or a cell as this frame sees it.
  std::optional<ir::Value> extern_value(const std::string& name) const;
  const CompiledScope* scope() const { return scope_.get(); }
  const std::shared_ptr<const CompiledScope>& scope_ptr() const { return scope_; }

  // Evaluates the kernel at `cycle` (if it has one); with `commit`, stores its
  // write-throughs into the cells. Outer frames are evaluated as needed.
  ir::Expected<void, RunError> evaluate(uint64_t cycle, bool commit);
  // The value of `name` at `cycle`: this frame's outputs, cells, variables,
  // `cycle`, then the outer frames. nullopt when nobody defines it. A unit
  // output does not shadow: the lookup goes on outwards.
  ir::Expected<std::optional<ir::Value>, RunError> lookup(const std::string& name, uint64_t cycle);

  // The cells as this frame sees them, and as it saw them when it began.
  const std::map<std::string, ir::Value>& cells() const { return cells_; }
  const std::map<std::string, ir::Value>& seed() const { return seed_; }
  // A write of an already-converted value: combined by `c` into this frame's
  // view and every outer view up to the owner's.
  void write(const std::string& cell, const ir::Value& v, frontend::Combine c);

 private:
  RunError located(const std::string& message, const char* kind) const;  // at the scope's place in the file
  ir::Expected<ir::Value, RunError> outer_value(const std::string& name, uint64_t cycle);

  Frame* parent_;
  std::string label_;
  Seeding seeding_;
  uint64_t serial_;
  Manifest visible_;
  std::map<std::string, ir::Value> vars_;
  std::map<std::string, ir::Value> cells_, seed_;
  std::set<std::string> owned_;
  std::shared_ptr<const CompiledScope> scope_;
  std::optional<embed::Kernel> kernel_;
  std::map<std::string, ir::Value> bound_;  // once-per-scope imports
  std::optional<uint64_t> evaluated_cycle_;
  uint64_t version_ = 0, evaluated_version_ = 0;
  std::vector<ir::Value> outputs_;
};

// A frame as an embed::Lookup at a fixed cycle (for specs and conditions).
class FrameLookup final : public embed::Lookup {
 public:
  FrameLookup(Frame& f, uint64_t cycle) : f_(f), cycle_(cycle) {}
  std::optional<ir::Value> lookup(std::string_view name) const override;
  const std::optional<RunError>& error() const { return error_; }

 private:
  Frame& f_;
  uint64_t cycle_;
  mutable std::optional<RunError> error_;
};

}  // namespace polydat::workload
