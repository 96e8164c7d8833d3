#pragma once
// Enumerating ball moves (specs/phutball.md §3.3, §13.2). A move of several hops removes men
// after each hop, so what can follow depends only on the pair (ball point, men left): the
// "jump state". Three walks over jump states:
//   * for_each_jump_path: every path, as legal_moves() and perft count them (§13.1). The number
//     of paths can explode (12.7M in a 7×7 block, TV-20): only for positions known to be small.
//   * for_each_jump_result: every jump state once (DFS with a visited set), with the first path
//     that reached it: one move per resulting position, what bots use. Takes a node budget
//     and a stop function (bots: PhutballState::bounded_distinct_moves).
//   * has_legal_ending: whether some continuation from a jump state ends legally; stops at the
//     first one, so it is cheap whenever most endings are legal (step input, §8).
// An `ending_ok(ball, key)` predicate says whether a move may end there: `key` is the Zobrist
// key of the position after the hops with the side to move not yet switched.
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "games/phutball/phutball_rules.h"

namespace plateau::phutball {

// How often the interruptible walks poll their stop function: every this many jump states
// (about 1 ms of walking, docs/PERFORMANCE.md).
inline constexpr std::size_t kStopPollStates = 2048;

// An open-addressing set of 64-bit position keys (the visited set of §13.2).
class KeySet {
 public:
  KeySet() { slots_.assign(1024, 0); }
  // True if `key` was not in the set (and is now).
  bool insert(std::uint64_t key) {
    if (key == 0) {  // 0 marks an empty slot: keep it aside
      bool fresh = !has_zero_;
      has_zero_ = true;
      return fresh;
    }
    if ((size_ + 1) * 2 > slots_.size()) grow();
    return place(slots_, key);
  }
  std::size_t size() const { return size_ + (has_zero_ ? 1 : 0); }

 private:
  bool place(std::vector<std::uint64_t>& slots, std::uint64_t key) {
    std::size_t mask = slots.size() - 1;
    for (std::size_t i = (key * 0x9E3779B97F4A7C15ull) >> 20 & mask;; i = (i + 1) & mask) {
      if (slots[i] == key) return false;
      if (slots[i] == 0) {
        slots[i] = key;
        ++size_;
        return true;
      }
    }
  }
  void grow() {
    std::vector<std::uint64_t> old(slots_.size() * 2, 0);
    old.swap(slots_);
    size_ = 0;
    for (std::uint64_t k : old) {
      if (k != 0) place(slots_, k);
    }
  }
  std::vector<std::uint64_t> slots_;
  std::size_t size_ = 0;
  bool has_zero_ = false;
};

// Ending predicate of the rules that need no history: own goals under own_goal = illegal.
struct OwnGoalFilter {
  const Rules* rules;
  int mover;
  bool operator()(int ball, std::uint64_t /*key*/) const {
    return !rules->own_goal_illegal || !is_own_goal(*rules, mover, ball);
  }
};

namespace detail {

// Depth-first walker over hops on a scratch copy of the men; `path` holds ball then landings.
struct HopWalker {
  const Rules& rules;
  std::array<std::uint8_t, kCells> men;
  std::uint64_t key;
  std::vector<std::uint16_t> path;

  HopWalker(const Rules& r, const Position& pos) : rules(r), men(pos.men), key(pos.key) {
    path.reserve(64);
    path.push_back(static_cast<std::uint16_t>(pos.ball));
  }

  // Makes the hop from `from` in direction d landing on `to`; returns the key change to undo.
  std::uint64_t hop(int from, int d, int to) {
    std::uint64_t delta = ball_key(from) ^ ball_key(to);
    for (int c = from + d; c != to; c += d) {
      men[c] = 0;
      delta ^= man_key(c);
    }
    key ^= delta;
    path.push_back(static_cast<std::uint16_t>(to));
    return delta;
  }
  void undo(int from, int d, int to, std::uint64_t delta) {
    for (int c = from + d; c != to; c += d) men[c] = 1;
    key ^= delta;
    path.pop_back();
  }
};

template <class Visit, class EndingOk>
void paths_from(HopWalker& w, int from, Visit& visit, const EndingOk& ending_ok) {
  for (int d : kDirections) {
    const int to = hop_landing(w.rules, w.men, from, d);
    if (to < 0) continue;
    const std::uint64_t delta = w.hop(from, d, to);
    if (ending_ok(to, w.key)) visit(w.path.data(), w.path.size(), to, w.key);
    if (w.rules.landing[to] == Landing::kPoint) paths_from(w, to, visit, ending_ok);
    w.undo(from, d, to, delta);
  }
}

}  // namespace detail

// Calls visit(codes, size, ball, key) for every jump path from pos.ball whose ending is allowed
// by ending_ok, stopping early included (§3.3). codes = ball cell then landing cells.
template <class Visit, class EndingOk>
void for_each_jump_path(const Rules& rules, const Position& pos, Visit&& visit,
                        const EndingOk& ending_ok) {
  if (!on_board(rules, pos.ball)) return;
  detail::HopWalker w(rules, pos);
  detail::paths_from(w, pos.ball, visit, ending_ok);
}

// Calls visit(codes, size, ball, key) once per jump state reached by ≥1 hop whose ending is
// allowed, with the first path that reached it (§13.2). Explores at most `budget` jump states
// (allowed or not); returns the number explored (== budget means it may have stopped early).
// `stop()` is polled every kStopPollStates jump states; once it returns true the walk ends (the
// return value is then below `budget` only if the walk had finished anyway).
template <class Visit, class EndingOk, class Stop>
std::size_t for_each_jump_result(const Rules& rules, const Position& pos, Visit&& visit,
                                 const EndingOk& ending_ok, std::size_t budget, const Stop& stop,
                                 bool* stopped = nullptr) {
  if (!on_board(rules, pos.ball)) return 0;
  detail::HopWalker w(rules, pos);
  KeySet seen;
  std::size_t explored = 0;
  bool halted = false;
  auto walk = [&](auto& self, int from) -> void {
    for (int d : kDirections) {
      if (halted || explored >= budget) return;
      const int to = hop_landing(w.rules, w.men, from, d);
      if (to < 0) continue;
      const std::uint64_t delta = w.hop(from, d, to);
      if (seen.insert(w.key)) {
        ++explored;
        if (explored % kStopPollStates == 0 && stop()) halted = true;
        if (ending_ok(to, w.key)) visit(w.path.data(), w.path.size(), to, w.key);
        if (!halted && rules.landing[to] == Landing::kPoint) self(self, to);
      }
      w.undo(from, d, to, delta);
    }
  };
  walk(walk, pos.ball);
  if (stopped) *stopped = halted;
  return explored;
}

template <class Visit, class EndingOk>
std::size_t for_each_jump_result(const Rules& rules, const Position& pos, Visit&& visit,
                                 const EndingOk& ending_ok,
                                 std::size_t budget = std::numeric_limits<std::size_t>::max()) {
  return for_each_jump_result(rules, pos, visit, ending_ok, budget, [] { return false; });
}

// Whether the position `pos` (reached by ≥1 hop of the current move; pos.key not yet switched
// to the other side) can end the move legally: here, or after more hops. Stops at the first
// allowed ending; never visits a jump state twice.
template <class EndingOk>
bool has_legal_ending(const Rules& rules, const Position& pos, const EndingOk& ending_ok) {
  if (ending_ok(pos.ball, pos.key)) return true;
  if (!on_board(rules, pos.ball)) return false;
  detail::HopWalker w(rules, pos);
  KeySet seen;
  auto walk = [&](auto& self, int from) -> bool {
    for (int d : kDirections) {
      const int to = hop_landing(w.rules, w.men, from, d);
      if (to < 0) continue;
      const std::uint64_t delta = w.hop(from, d, to);
      const bool found =
          seen.insert(w.key) &&
          (ending_ok(to, w.key) || (rules.landing[to] == Landing::kPoint && self(self, to)));
      w.undo(from, d, to, delta);
      if (found) return true;
    }
    return false;
  };
  return walk(walk, pos.ball);
}

// Counts of the jump paths from a position (TV-20), computed over jump states with memoisation
// so that no path is enumerated: paths(state) = Σ over hops (allowed ending + paths(next)).
struct JumpCounts {
  std::uint64_t paths = 0;    // jump moves whose ending is allowed
  std::uint64_t results = 0;  // distinct resulting positions of those moves
  int longest = 0;            // hops of the longest allowed path
};
JumpCounts count_jumps(const Rules& rules, const Position& pos, const OwnGoalFilter& ending_ok);

}  // namespace plateau::phutball
