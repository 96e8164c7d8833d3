#pragma once
// How long a search may run: a budget in iterations (MCTS playouts or alpha-beta nodes) that
// makes play reproducible, and an optional wall-clock cap (`--movetime`). The clock can be
// injected so that tests check the budget logic without timing anything.
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>

namespace plateau::ai {

// Microseconds since an arbitrary fixed point; must never go backwards.
using Clock = std::function<std::int64_t()>;

// The steady clock in microseconds.
inline std::int64_t steady_now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct SearchLimits {
  // Iterations: MCTS playouts or alpha-beta nodes. The search stops before exceeding it.
  std::uint64_t budget = std::numeric_limits<std::uint64_t>::max();
  // Wall-clock cap in milliseconds; 0 = none. A search checks the clock often enough to stop
  // within a few milliseconds of it.
  std::int64_t movetime_ms = 0;
  // Clock used for movetime (default: the steady clock).
  Clock clock;
};

// A started search's wall-clock deadline. Cheap to poll.
class Deadline {
 public:
  explicit Deadline(const SearchLimits& limits)
      : clock_(limits.clock ? limits.clock : Clock(steady_now_us)),
        start_us_(clock_()),
        cap_us_(limits.movetime_ms > 0 ? limits.movetime_ms * 1000 : 0) {}

  // True once the movetime (if any) has passed.
  bool expired() const { return cap_us_ > 0 && clock_() - start_us_ >= cap_us_; }
  // Microseconds since the search started.
  std::int64_t elapsed_us() const { return clock_() - start_us_; }
  bool has_cap() const { return cap_us_ > 0; }

 private:
  Clock clock_;
  std::int64_t start_us_;
  std::int64_t cap_us_;
};

}  // namespace plateau::ai
