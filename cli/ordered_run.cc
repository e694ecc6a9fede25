#include "cli/ordered_run.h"

#include <fcntl.h>
#include <fmt/core.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "cli/progress.h"

namespace polydat::cli {

RunEnd run_in_order(const OrderedRun& run, const std::function<ChunkProducer()>& make_producer,
                    const std::function<bool(const std::string&)>& sink) {
  const uint64_t rows = run.end - run.first;
  const uint64_t chunks = (rows + run.chunk_rows - 1) / run.chunk_rows;
  const unsigned threads = std::max(1u, static_cast<unsigned>(std::min<uint64_t>(run.threads, std::max<uint64_t>(chunks, 1))));
  const uint64_t window = 2 * threads;  // chunks computed ahead of the writer, at most
  std::vector<std::optional<ChunkText>> slots(window);
  std::mutex mutex;
  std::condition_variable changed;
  uint64_t next_to_take = 0, next_to_write = 0;
  bool stop = false;

  auto worker = [&](ChunkProducer produce) {
    for (;;) {
      uint64_t c;
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return stop || next_to_take >= chunks || next_to_take < next_to_write + window; });
        if (stop || next_to_take >= chunks) return;
        c = next_to_take++;
      }
      const uint64_t first = run.first + c * run.chunk_rows;
      ChunkText text = produce(first, static_cast<size_t>(std::min<uint64_t>(run.chunk_rows, run.end - first)));
      const std::lock_guard<std::mutex> lock(mutex);
      slots[c % window] = std::move(text);
      changed.notify_all();
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker, make_producer());

  RunEnd end = RunEnd::Done;
  {
    ProgressLine progress(run.what, run.unit, run.progress);
    for (uint64_t c = 0; c < chunks; ++c) {
      ChunkText text;
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return slots[c % window].has_value(); });
        text = std::move(*slots[c % window]);
        slots[c % window].reset();
        next_to_write = c + 1;
        changed.notify_all();
      }
      if (!sink(text.text)) {
        end = RunEnd::Closed;
        break;
      }
      if (text.error) {
        fmt::print(stderr, "{}", *text.error);
        end = RunEnd::Error;
        break;
      }
      progress.update(std::min<uint64_t>(rows, (c + 1) * run.chunk_rows), rows);
    }
  }
  {
    const std::lock_guard<std::mutex> lock(mutex);
    stop = true;
    changed.notify_all();
  }
  for (std::thread& t : pool) t.join();
  return end;
}

std::optional<OutputFile> OutputFile::open(const std::string& path) {
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe is EPIPE from write(), handled there
  if (path.empty() || path == "-") return OutputFile(STDOUT_FILENO, "stdout");
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    fmt::print(stderr, "error: cannot write '{}': {}\n", path, std::strerror(errno));
    return std::nullopt;
  }
  return OutputFile(fd, path);
}

OutputFile::~OutputFile() {
  if (fd_ > STDERR_FILENO) ::close(fd_);
}

bool OutputFile::write(const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n >= 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (errno == EINTR) continue;
    if (errno == EPIPE) {
      closed_ = true;
      return false;
    }
    fmt::print(stderr, "error: cannot write {}: {}\n", path_, std::strerror(errno));
    return false;
  }
  return true;
}

}  // namespace polydat::cli
