#pragma once
// What a turn gains, and a memo of the gains of the capturing turns of the last move list made
// on this thread. The search asks distinct_moves() for a list and at once order_moves() to put
// the captures first; the memo spares order_moves replaying each capturing turn through a Turn,
// which the generator had just played (biloba_game.cpp, biloba_ai.cpp). A pure memo: a gain is
// a function of the position, the table's pass rule and the turn token, and order_moves takes
// an entry only for the same position, pass rule and token, replaying anything else.
#include <cstdint>
#include <utility>
#include <vector>

#include "core/move.h"
#include "games/biloba/biloba_rules.h"

namespace plateau::biloba {

// Pawns of the other seats removed by a turn of `seat` from `before` to `after`, less own pawns
// lost.
inline int turn_gain(const Position& before, const Position& after, int seat) {
  int gain = 0;
  for (int s = 0; s < before.players; ++s) {
    const int lost = before.count[s] - after.count[s];
    gain += s == seat ? -lost : lost;
  }
  return gain;
}

// The stable sort of `moves` by −gain (order_moves), given `keyed`: the (−gain, index) of the
// moves whose gain is not 0, in index order (it is used up). The turns that win pawns come first
// by (−gain, index), then those with gain 0 in their order, then those that lose pawns by
// (−gain, index). In place: only the moves whose place changes are moved (biloba_lists.cpp).
void order_by_gain(std::vector<Move>& moves, std::vector<std::pair<int, std::size_t>>& keyed);

struct TurnGainMemo {
  bool pass_when_stuck = true;  // the table's rule for a seat without a legal move
  Position pos;
  bool valid = false;
  // The turns, in list order: their codes back to back, each turn's end and its gain.
  std::vector<Move::Code> codes;
  std::vector<std::uint32_t> ends;
  std::vector<int> gains;

  void clear() {
    valid = false;
    codes.clear();
    ends.clear();
    gains.clear();
  }
  void add(const Move& token, int gain) {
    codes.insert(codes.end(), token.begin(), token.end());
    ends.push_back(static_cast<std::uint32_t>(codes.size()));
    gains.push_back(gain);
  }
  // True when turn i's codes are those of `m`.
  bool same(std::size_t i, const Move& m) const {
    const std::uint32_t begin = i == 0 ? 0 : ends[i - 1];
    if (ends[i] - begin != m.size()) return false;
    for (std::size_t j = 0; j < m.size(); ++j) {
      if (codes[begin + j] != m[j]) return false;
    }
    return true;
  }

  // The memo of the calling thread.
  static TurnGainMemo& of_thread() {
    thread_local TurnGainMemo memo;
    return memo;
  }
};

}  // namespace plateau::biloba
