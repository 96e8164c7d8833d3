// Biloba's hooks for the AI: evaluation (pawns, threatened pawns), captures-first move order and
// playout bias, and the `classic` built-in player (biloba_classic.h, specs/biloba.md §14).
#include <algorithm>
#include <optional>

#include "games/biloba/biloba_classic.h"
#include "games/biloba/biloba_gains.h"
#include "games/biloba/biloba_game.h"
#include "games/biloba/biloba_movegen.h"

namespace plateau::biloba {

namespace {

// The position after `move` (a token of this position's turn).
Position after_move(const Turn& start, const Move& move) {
  Turn t = start;
  for (Move::Code code : move) {
    if (code < kSquares) t.choose(code);
  }
  return t.position();
}

// True when `move` is a move body alone that captures nothing (its gain is 0 without a replay).
bool quiet_body(const TurnBoard& board, const Move& move) {
  const std::size_t n = move.size();
  if (n < 2 || n > 3 || move[0] >= kSquares) return false;
  return !board.captures(move[0], move[n - 1]);
}

}  // namespace

// evaluate() is in biloba_eval.cpp.

void BilobaState::order_moves(std::vector<Move>& moves) const {
  if (outcome_ != Outcome::kOngoing || moves.size() < 2) return;
  const int seat = pos_.to_move;
  std::optional<Turn> start;  // made only for the turns that capture
  const TurnBoard board(pos_, seat);
  // (−gain, index) of the turns that win or lose pawns; the others keep their order.
  std::vector<std::pair<int, std::size_t>> keyed;
  // The gains the generator found for the turns it played through a Turn, in list order (a
  // list that is the generator's, or a part of it in the same order, meets them in order).
  const TurnGainMemo& memo = TurnGainMemo::of_thread();
  const bool memo_ok =
      memo.valid && memo.pass_when_stuck == game_->pass_when_stuck() && memo.pos == pos_;
  std::size_t next = 0;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    // Captures first (the threat test would cost more than the ordering saves).
    const Move& m = moves[i];
    int gain = 0;
    if (memo_ok && next < memo.gains.size() && memo.same(next, m)) {
      gain = memo.gains[next++];
    } else {
      if (quiet_body(board, m)) continue;
      // A token that starts with a square was made at the turn's first choice (§5.2 passed).
      if (!start) {
        start.emplace(m[0] < kSquares ? Turn::at_first_choice(pos_, game_->pass_when_stuck())
                                      : start_turn());
      }
      gain = turn_gain(pos_, after_move(*start, m), seat);
    }
    if (gain != 0) keyed.emplace_back(-gain, i);
  }
  order_by_gain(moves, keyed);
}

Move BilobaState::playout_move(Rng& rng) const {
  // One pass over the turns: the best capture half of the time, otherwise any turn.
  std::vector<Move> all;
  all.reserve(128);
  int best_gain = 0;
  std::size_t best = 0;
  const int seat = pos_.to_move;
  // Bounded: a big capture's refill orders could list hundreds of thousands of turns.
  constexpr std::uint64_t kPlayoutChoices = 20'000;
  std::uint64_t visited = 0;
  auto never = [] { return false; };
  BoundedChoices<decltype(never)> choices(kPlayoutChoices, &visited, never);
  for_each_turn_fast(
      pos_, game_->pass_when_stuck(), choices,
      [&](int from, int to, int exit) { push_body(all, from, to, exit); },
      [&](const Turn& t) {
        const int g = turn_gain(pos_, t.position(), seat);
        if (g > best_gain) {
          best_gain = g;
          best = all.size();
        }
        all.push_back(t.token());
      });
  if (best_gain > 0 && rng.below(2) == 0) return all[best];
  return all[rng.below(static_cast<std::uint32_t>(all.size()))];
}

std::optional<Move> BilobaState::builtin_player_move(std::string_view player, Rng& rng) const {
  if (player != "classic" || outcome_ != Outcome::kOngoing) return std::nullopt;
  return classic_turn(pos_, game_->pass_when_stuck(), rng);
}

}  // namespace plateau::biloba
