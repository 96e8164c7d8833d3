// Biloba's hooks for the AI: evaluation (pawns, threatened pawns), captures-first move order and
// playout bias, and the `classic` built-in player (biloba_classic.h, specs/biloba.md §14).
#include <algorithm>

#include "games/biloba/biloba_classic.h"
#include "games/biloba/biloba_game.h"

namespace plateau::biloba {

namespace {

// Pawns of the other seats removed by a turn whose result is `after`, less own pawns lost.
int turn_gain(const Position& before, const Position& after, int seat) {
  int gain = 0;
  for (int s = 0; s < before.players; ++s) {
    const int lost = before.count[s] - after.count[s];
    gain += s == seat ? -lost : lost;
  }
  return gain;
}

// The position after `move` (a token of this position's turn).
Position after_move(const Turn& start, const Move& move) {
  Turn t = start;
  for (Move::Code code : move) {
    if (code < kSquares) t.choose(code);
  }
  return t.position();
}

}  // namespace

// evaluate() is in biloba_eval.cpp.

void BilobaState::order_moves(std::vector<Move>& moves) const {
  if (outcome_ != Outcome::kOngoing || moves.size() < 2) return;
  const Turn start = start_turn();
  const int seat = pos_.to_move;
  std::vector<std::pair<double, std::size_t>> keyed;
  keyed.reserve(moves.size());
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Position after = after_move(start, moves[i]);
    // Captures first (the threat test would cost more than the ordering saves).
    const double key = turn_gain(pos_, after, seat);
    keyed.emplace_back(-key, i);
  }
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Move> sorted;
  sorted.reserve(moves.size());
  for (const auto& k : keyed) sorted.push_back(std::move(moves[k.second]));
  moves = std::move(sorted);
}

Move BilobaState::playout_move(Rng& rng) const {
  // One pass over the turns: the best capture half of the time, otherwise any turn.
  std::vector<Move> all;
  int best_gain = 0;
  std::size_t best = 0;
  const int seat = pos_.to_move;
  // Bounded: a big capture's refill orders could list hundreds of thousands of turns.
  constexpr std::uint64_t kPlayoutChoices = 20'000;
  std::uint64_t visited = 0;
  for_each_turn_bounded(
      start_turn(),
      [&](const Turn& t) {
        const int g = turn_gain(pos_, t.position(), seat);
        if (g > best_gain) {
          best_gain = g;
          best = all.size();
        }
        all.push_back(t.token());
      },
      kPlayoutChoices, &visited, [] { return false; });
  if (best_gain > 0 && rng.below(2) == 0) return all[best];
  return all[rng.below(static_cast<std::uint32_t>(all.size()))];
}

std::optional<Move> BilobaState::builtin_player_move(std::string_view player, Rng& rng) const {
  if (player != "classic" || outcome_ != Outcome::kOngoing) return std::nullopt;
  return classic_turn(pos_, game_->pass_when_stuck(), rng);
}

}  // namespace plateau::biloba
