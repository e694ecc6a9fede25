// Rows computed in chunks by several threads and written in row order, with a
// bounded number of chunks in flight (memory stays flat however many rows),
// and a progress line on stderr for long runs.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace polydat::cli {

struct ChunkText {
  std::string text;
  std::optional<std::string> error;  // the run ends after this chunk's text, with this message
};

// One thread's producer: the text of rows [first, first + count).
using ChunkProducer = std::function<ChunkText(uint64_t first, size_t count)>;

struct OrderedRun {
  uint64_t first = 0, end = 0;  // the rows
  size_t chunk_rows = 8192;
  unsigned threads = 1;
  bool progress = false;        // a progress line on stderr once the run passes a second (cli/progress.h)
  std::string what = "eval";    // the progress line's subject
  std::string unit = "cycles";  // what the progress line counts
};

enum class RunEnd {
  Done,    // every row written
  Error,   // a chunk's error (printed)
  Closed,  // the reader went away (the sink said so)
};

// `make_producer` is called once per thread; `sink` takes the text in row
// order and returns false when nothing more can be written.
RunEnd run_in_order(const OrderedRun& run, const std::function<ChunkProducer()>& make_producer,
                    const std::function<bool(const std::string&)>& sink);

// Text to stdout or a file through write(2): a closed pipe (EPIPE) is the
// reader going away, not an error. SIGPIPE is ignored from the first writer on.
class OutputFile {
 public:
  // "" or "-" is stdout; nullopt after printing why the file cannot be opened.
  static std::optional<OutputFile> open(const std::string& path);
  OutputFile(OutputFile&& o) noexcept : fd_(o.fd_), path_(std::move(o.path_)), closed_(o.closed_) { o.fd_ = -1; }
  ~OutputFile();
  // false when the reader has gone (closed() says so) or a write failed (printed).
  bool write(const std::string& text);
  bool closed() const { return closed_; }

 private:
  OutputFile(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_ = -1;
  std::string path_;
  bool closed_ = false;
};

}  // namespace polydat::cli
