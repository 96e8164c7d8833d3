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

// Work and memory bounds of every bot, in positions visited by the bounded hooks of
// core/state.h (State::bounded_distinct_moves, State::bounded_winning_move). They matter only on
// pathological positions (a Phutball ball inside a block of men: a million jump states); on
// ordinary positions move lists and jump searches stay far below them, so play is unchanged.
// docs/AI.md ("Bounds") lists them with the memory they imply.
//
// The root of a search may look further than its interior nodes (it also polls the deadline
// while it looks); interior nodes get small fixed slices so that one node costs ~1-2 ms at most.
inline constexpr std::uint64_t kRootMoveWork = 100'000;    // root move list (≤ ~6 MB of moves)
inline constexpr std::uint64_t kRootWinWork = 1'000'000;   // root win-in-one search (~0.3 s)
inline constexpr std::uint64_t kNodeMoveWork = 5'000;      // a move list below the root
inline constexpr std::uint64_t kNodeWinWork = 5'000;       // a win-in-one check below the root
// A whole alpha-beta search stops once its interior nodes have spent budget × kWorkPerIteration
// positions (plus the root's own), as it stops at its node budget. (MCTS needs no such cap: one
// bounded expansion per playout.)
inline constexpr std::uint64_t kWorkPerIteration = 200;
// The deadline is polled at least every this many positions of work (besides every 256 nodes).
inline constexpr std::uint64_t kDeadlinePollWork = 20'000;

// The work cap of a search of `budget` iterations that has spent `spent` at its root:
// spent + budget × kWorkPerIteration, saturating (an unlimited budget gives an unlimited cap).
inline std::uint64_t work_cap(std::uint64_t spent, std::uint64_t budget) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  if (budget > kMax / kWorkPerIteration) return kMax;
  const std::uint64_t more = budget * kWorkPerIteration;
  return more > kMax - spent ? kMax : spent + more;
}

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
