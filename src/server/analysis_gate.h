#pragma once
// The bounds of `analyse` (issue 17 item 7; docs/SECURITY.md): a bot's search is the most
// expensive thing a user can ask for, so each user has one in flight at a time and a token
// bucket (a burst, then one per refill period), and the server runs at most a fixed number at
// once. Refusals are immediate, with a message saying what to do; nothing is queued.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace plateau::server {

struct AnalysisBounds {
  int burst = 10;                 // analyses in a row before the rate applies (>= 1)
  std::int64_t refill_ms = 3000;  // then one more per this many ms (>= 1)
  std::size_t max_running = 2;    // in the whole server (>= 1)
};

class AnalysisGate {
 public:
  explicit AnalysisGate(AnalysisBounds bounds) : bounds_(bounds) {}

  // Releases its slot when the last copy goes (the analysis answered, failed or was dropped).
  // It may outlive the gate (a handler destroyed unrun at shutdown): it shares the counts.
  using Ticket = std::shared_ptr<void>;

  // Admits one analysis of `user` (any case) at `now_ms` (any monotonic ms clock): returns a
  // ticket, or throws CommandError with the reason: "an analysis of yours is still running;
  // wait for its answer", "too many analyses: N in a row, then one every S s; try again in T s",
  // or "the server is busy with N analyses; try again in a moment". Thread-safe.
  Ticket admit(const std::string& user, std::int64_t now_ms);

  // Analyses running now (for tests and stats). Thread-safe.
  std::size_t running() const;
  // Users whose bucket is kept (bounded: once more than 4096, the full idle ones are dropped at
  // the next admission). Thread-safe.
  std::size_t users() const;

 private:
  struct Bucket {
    double tokens = 0;
    std::int64_t at_ms = 0;  // when `tokens` was counted
    bool busy = false;
  };
  struct Counts {
    std::mutex mutex;
    std::map<std::string, Bucket> buckets;  // lower-case user -> bucket
    std::size_t running = 0;
  };
  static void release(Counts& counts, const std::string& key);
  // Drops the buckets that are full again and idle (they hold nothing a new one would not).
  void prune(std::int64_t now_ms);

  const AnalysisBounds bounds_;
  const std::shared_ptr<Counts> counts_ = std::make_shared<Counts>();
};

}  // namespace plateau::server
