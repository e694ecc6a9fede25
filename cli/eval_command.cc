#include <fmt/core.h>

#include <map>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/flow.h"
#include "cli/stimulus.h"
#include "cli/values.h"
#include "frontend/compile.h"
#include "ir/interp.h"
#include "sim/llvm/native_kernel.h"

namespace polydat::cli {

namespace {
using frontend::Port;

void user_error(const std::string& message) { fmt::print(stderr, "error: {}\n", message); }

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<ir::Value>> rows;
};

void print_table(const Table& t) {
  std::vector<size_t> width(t.header.size());
  std::vector<std::vector<std::string>> cells;
  for (size_t c = 0; c < t.header.size(); ++c) width[c] = t.header[c].size();
  for (const auto& row : t.rows) {
    cells.emplace_back();
    for (size_t c = 0; c < row.size(); ++c) {
      cells.back().push_back(ir::render(row[c]));
      width[c] = std::max(width[c], cells.back().back().size());
    }
  }
  auto line = [&](const std::vector<std::string>& fields) {
    std::string out;
    for (size_t c = 0; c < fields.size(); ++c) {
      out += fields[c];
      if (c + 1 < fields.size()) out += std::string(width[c] - fields[c].size() + 2, ' ');
    }
    fmt::print("{}\n", out);
  };
  line(t.header);
  for (const auto& row : cells) line(row);
}

void print_csv(const Table& t) {
  std::string head;
  for (size_t c = 0; c < t.header.size(); ++c) head += (c ? "," : "") + t.header[c];
  fmt::print("{}\n", head);
  for (const auto& row : t.rows) {
    std::string out;
    for (size_t c = 0; c < row.size(); ++c) out += (c ? "," : "") + csv_field(row[c]);
    fmt::print("{}\n", out);
  }
}

nlohmann::ordered_json json_value(const ir::Value& v) {
  const ir::Ty& t = v.ty();
  if (t.is_bool()) return v.as_bool();
  if (t.is_signed_int()) return v.as_i64();
  if (t.is_int()) return v.as_u64();
  if (t.is_float()) {
    const double d = t.kind() == ir::TyKind::F32 ? std::stod(ir::render(v)) : v.as_f64();
    return std::isfinite(d) ? nlohmann::ordered_json(d) : nlohmann::ordered_json(nullptr);  // JSON has no NaN
  }
  return ir::render(v);
}

void print_json(const Table& t) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& row : t.rows) {
    nlohmann::ordered_json obj = nlohmann::ordered_json::object();
    for (size_t c = 0; c < row.size(); ++c) obj[t.header[c]] = json_value(row[c]);
    rows.push_back(std::move(obj));
  }
  fmt::print("{}\n", rows.dump(2));
}
// The interpreter, one evaluation at a time; its errors point at the source.
std::optional<std::vector<ir::Value>> run_interpreter(const frontend::CompileResult& r,
                                                      const std::vector<ir::Value>& inputs, uint64_t first_cycle) {
  ir::Interpreter interp(*r.ir);
  std::vector<ir::Value> outputs;
  for (size_t n = 0; n < inputs.size(); ++n) {
    auto out = interp.run(inputs[n]);
    if (!out) {
      const ir::SourceLoc& at = out.error().loc;
      const std::string message = out.error().message + " (at cycle " + std::to_string(first_cycle + n) + ")";
      const std::string kind(ir::interp_error_name(out.error().kind));
      if (at.line && at.file < r.program->sources.size())
        fmt::print(stderr, "{}", frontend::render_error_at(r.program->sources, frontend::Span{at.file, at.start, at.end},
                                                           message, kind));
      else
        fmt::print(stderr, "error: {} [{}]\n", message, kind);
      return std::nullopt;
    }
    outputs.push_back(std::move(*out));
  }
  return outputs;
}

// The native backend: optimised, compiled once, the whole batch in one call.
std::optional<std::vector<ir::Value>> run_native(const frontend::CompileResult& r, const std::vector<ir::Value>& inputs,
                                                 uint64_t first_cycle) {
  auto opt = optimized(*r.ir);
  if (!opt) return std::nullopt;
  auto kernel = sim::NativeKernel::compile(*opt, opt->entry());
  if (!kernel) {
    user_error("the llvm engine cannot run this kernel: " + kernel.error());
    return std::nullopt;
  }
  std::vector<ir::Value> outputs = (*kernel)->evaluate(inputs);
  // Stopped at the iteration limit: the same rule as the interpreter, so it reports the same error.
  if (outputs.size() < inputs.size()) {
    const size_t at = outputs.size();
    if (run_interpreter(r, {inputs[at]}, first_cycle + at)) user_error("internal: the llvm engine stopped, the interpreter did not");
    return std::nullopt;
  }
  return outputs;
}
}  // namespace

int eval_command(const EvalArgs& args) {
  if (args.format != "table" && args.format != "csv" && args.format != "json") {
    user_error("--format is table, csv or json");
    return kUsageError;
  }
  auto range = cycles_option(args.cycles);
  if (!range) return kUsageError;
  frontend::CompileResult r;
  if (!compile_kernel(args.file, args.lib_paths, r)) return kUserError;
  const frontend::Unit& k = r.kernel();
  std::optional<Stimulus> stimulus;
  try {
    stimulus = Stimulus::make(k, args.sets);
  } catch (const UsageError&) {
    return kUsageError;
  }
  if (!stimulus) return kUserError;
  const std::optional<size_t> iterated = stimulus->iterated();

  const ir::CategoryIr& g = *r.ir;
  const ir::Ty in_ty = g.object(g.func(g.entry()).input).ty;
  Table table;
  if (iterated) table.header.push_back(k.params[*iterated].name);
  for (const Port& o : k.outputs) table.header.push_back(o.name);
  auto inputs = stimulus->records(*range, in_ty);
  if (!inputs) return kUserError;
  const uint64_t count = inputs->size();
  auto outputs = args.engine == "llvm" ? run_native(r, *inputs, range->begin) : run_interpreter(r, *inputs, range->begin);
  if (!outputs) return kUserError;
  for (uint64_t n = 0; n < count; ++n) {
    std::vector<ir::Value> row;
    if (iterated) row.push_back(ir::Value::integer(ir::TyKind::U64, range->begin + n));
    for (const ir::Value& v : (*outputs)[n].elems()) row.push_back(v);
    table.rows.push_back(std::move(row));
  }
  if (args.format == "csv") print_csv(table);
  else if (args.format == "json") print_json(table);
  else print_table(table);
  return kOk;
}

}  // namespace polydat::cli
