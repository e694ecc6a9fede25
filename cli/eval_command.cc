#include <fmt/core.h>

#include <unistd.h>

#include <thread>

#include "cli/commands.h"
#include "cli/flow.h"
#include "cli/stimulus.h"
#include "cli/eval_engines.h"
#include "cli/ordered_run.h"
#include "cli/progress.h"
#include "cli/record_format.h"
#include "cli/values.h"
#include "frontend/compile.h"

namespace polydat::cli {

namespace {

void user_error(const std::string& message) { fmt::print(stderr, "error: {}\n", message); }

// "K/N": the K-th (from 1) of N slices.
struct Shard {
  uint64_t k = 1, n = 1;
};
std::optional<Shard> parse_shard(const std::string& text) {
  if (text.empty()) return Shard{};
  const size_t slash = text.find('/');
  if (slash == std::string::npos) return std::nullopt;
  auto k = parse_value(text.substr(0, slash), ir::Ty::u64()), n = parse_value(text.substr(slash + 1), ir::Ty::u64());
  if (!k || !n || k->as_u64() == 0 || k->as_u64() > n->as_u64()) return std::nullopt;
  return Shard{k->as_u64(), n->as_u64()};
}

// Rows [total * (k-1) / n, total * k / n): every row in exactly one shard, in order.
std::pair<uint64_t, uint64_t> shard_rows(uint64_t total, Shard s) {
  auto bound = [&](uint64_t i) {
    return static_cast<uint64_t>(static_cast<unsigned __int128>(total) * i / s.n);
  };
  return {bound(s.k - 1), bound(s.k)};
}

// The text of rows [first, first + count) on one evaluator.
ChunkText chunk_text(RowEvaluator& e, const RowFormatter& f, uint64_t first, size_t count, uint64_t first_cycle,
                     size_t record_size) {
  ChunkResult r = e.evaluate(first, count);
  ChunkText out;
  out.text.reserve(r.done * 24);
  for (size_t i = 0; i < r.done; ++i) f.row(out.text, first + i, first_cycle + first + i, r.records + i * record_size);
  out.error = std::move(r.error);
  return out;
}

}  // namespace

int eval_command(const EvalArgs& args) {
  const std::optional<Format> format = parse_format(args.format);
  if (!format) {
    user_error(std::string("--format is ") + kFormatNames);
    return kUsageError;
  }
  const std::optional<Shard> shard = parse_shard(args.shard);
  if (!shard) {
    user_error("--shard takes K/N, 1 <= K <= N, not '" + args.shard + "'");
    return kUsageError;
  }
  auto range = cycles_option(args.cycles);
  if (!range) return kUsageError;
  frontend::CompileResult r;
  if (!compile_kernel(args.file, args.lib_paths, r, args.outputs)) return compile_failure_status(r);
  const frontend::Unit& k = r.kernel();
  auto stimulus = stimulus_for(k, args.sets);
  if (!stimulus) return stimulus.error();
  const std::optional<size_t> iterated = stimulus->iterated();
  const uint64_t total = iterated ? range->end - range->begin : 1;
  const auto [first_row, end_row] = shard_rows(total, *shard);
  // A cycle the iterated input cannot hold is refused before anything is written (the last is the largest).
  if (end_row > first_row && !stimulus->at(range->begin + end_row - 1)) return kUserError;

  std::unique_ptr<EvalEngine> engine = args.engine == "llvm" ? llvm_engine(r, *stimulus, range->begin)
                                                             : interpreter_engine(r, *stimulus, range->begin);
  if (!engine) return kUserError;
  RowFormatter formatter(*format, iterated ? std::optional<std::string>(k.params[*iterated].name) : std::nullopt,
                         engine->outputs());
  if (*format == Format::Bin)
    if (auto why = formatter.bin_refusal()) {
      user_error(*why);
      return kUserError;
    }
  OrderedRun plan;
  plan.first = first_row;
  plan.end = end_row;
  plan.threads = args.threads ? args.threads : std::max(1u, std::thread::hardware_concurrency());
  plan.progress = progress_wanted(args.quiet);
  plan.what = "eval " + args.file;
  const size_t record_size = engine->outputs().size;
  if (*format == Format::Table) {  // the columns fit the run's first chunk, whichever shard this is
    auto e = engine->evaluator();
    const ChunkResult first = e->evaluate(0, static_cast<size_t>(std::min<uint64_t>(total, plan.chunk_rows)));
    formatter.fit_widths(range->begin, first.records, first.done);
  }

  std::optional<OutputFile> out = OutputFile::open(args.output);
  if (!out) return kUserError;
  std::fflush(stdout);
  // The first shard writes what precedes the rows, the last what follows them (a shard may have no rows).
  if (shard->k == 1 && !out->write(formatter.begin())) return out->closed() ? kOk : kUserError;
  const uint64_t first_cycle = range->begin;
  const RunEnd end = run_in_order(
      plan,
      [&]() -> ChunkProducer {
        std::shared_ptr<RowEvaluator> e = engine->evaluator();
        return [e, &formatter, first_cycle, record_size](uint64_t first, size_t count) {
          return chunk_text(*e, formatter, first, count, first_cycle, record_size);
        };
      },
      [&](const std::string& text) { return out->write(text); });
  if (end == RunEnd::Closed) return out->closed() ? kOk : kUserError;
  if (end == RunEnd::Error) return kUserError;
  if (shard->k == shard->n && !out->write(formatter.end(total))) return out->closed() ? kOk : kUserError;
  return kOk;
}

}  // namespace polydat::cli
