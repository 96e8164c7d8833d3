#include "games/phutball/phutball_jumps.h"

#include <unordered_map>

namespace plateau::phutball {

namespace {

struct Memo {
  std::uint64_t paths = 0;  // allowed paths starting from this jump state (not counting itself)
  int longest = -1;         // most further hops to an allowed ending, -1 for none
};

struct Counter {
  const Rules& rules;
  const OwnGoalFilter& ending_ok;
  detail::HopWalker w;
  std::unordered_map<std::uint64_t, Memo> memo;
  KeySet results;

  Memo from(int ball) {
    if (auto it = memo.find(w.key); it != memo.end()) return it->second;
    const std::uint64_t here = w.key;
    Memo m;
    for (int d : kDirections) {
      const int to = hop_landing(rules, w.men, ball, d);
      if (to < 0) continue;
      const std::uint64_t delta = w.hop(ball, d, to);
      if (ending_ok(to, w.key)) {
        ++m.paths;
        m.longest = std::max(m.longest, 1);
        results.insert(w.key);
      }
      if (rules.landing[to] == Landing::kPoint) {
        const Memo next = from(to);
        m.paths += next.paths;
        if (next.longest >= 0) m.longest = std::max(m.longest, next.longest + 1);
      }
      w.undo(ball, d, to, delta);
    }
    memo.emplace(here, m);
    return m;
  }
};

}  // namespace

JumpCounts count_jumps(const Rules& rules, const Position& pos, const OwnGoalFilter& ending_ok) {
  if (!on_board(rules, pos.ball)) return {};
  Counter c{rules, ending_ok, detail::HopWalker(rules, pos), {}, {}};
  const Memo m = c.from(pos.ball);
  return {m.paths, c.results.size(), std::max(m.longest, 0)};
}

}  // namespace plateau::phutball
