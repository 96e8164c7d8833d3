// BohnDuell's evaluation, move order and playout policy for the AI (specs/bohnduell.md §4.2,
// §11.4, §11.5): the final result is the store margin, so a position is worth its store margin
// plus an estimate of what the balls still in play will bring.
#include <algorithm>
#include <cmath>

#include "games/bohnduell/bohnduell_game.h"

namespace plateau::bohnduell {

namespace {

// What `seat`'s bowls are likely to add to its own store (positive) or give away (negative).
double bowl_outlook(const Rules& rules, const Position& pos, int seat) {
  const Side& me = pos.side[seat];
  const Side& other = pos.side[1 - seat];
  double v = 0.0;
  for (int d = 1; d <= kBowls; ++d) {
    const int b = me.bowl[d];
    if (b == 0) continue;
    // Balls in a bowl that is not dead can still be harvested towards the store (§11.4); a
    // dead bowl only feeds the opponent (§4.2).
    v += b <= d ? 0.45 * b : -0.35 * b;
    // The opponent steals this bowl with a supply move into the empty bowl facing it (§4.1).
    const int k = opposite_bowl(rules, d);
    if (other.bowl[k] == 0 && other.supply >= (rules.short_supply_partial ? 1 : 5 - k)) {
      v -= 0.5 * b;
    }
  }
  return v;
}

// Balls `code` adds to the mover's store at once (harvest ball plus steals).
int immediate_gain(const Rules& rules, const Position& pos, int code) {
  Position next = pos;
  const int mover = pos.to_move;
  apply_move(rules, next, code);
  return next.side[mover].store - pos.side[mover].store;
}

}  // namespace

std::vector<double> BohnDuellState::evaluate() const {
  if (pos_.over) return returns();
  const Rules& r = rules();
  const double margin = (pos_.side[0].store - pos_.side[1].store) + bowl_outlook(r, pos_, 0) -
                        bowl_outlook(r, pos_, 1) + (pos_.to_move == 0 ? 0.3 : -0.3);
  const double a = 1.0 / (1.0 + std::exp(-0.6 * margin));
  return {a, 1.0 - a};
}

void BohnDuellState::order_moves(std::vector<Move>& moves) const {
  if (pos_.over) return;
  std::vector<std::pair<int, Move>> keyed;
  keyed.reserve(moves.size());
  for (Move& m : moves) {
    const int code = m[0];
    // Gains first; among equal gains harvests (which keep the supply), then cheap supply moves.
    const int key = immediate_gain(rules(), pos_, code) * 16 + (is_supply(code) ? code : 8 + code);
    keyed.emplace_back(-key, std::move(m));
  }
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 0; i < moves.size(); ++i) moves[i] = std::move(keyed[i].second);
}

Move BohnDuellState::playout_move(Rng& rng) const {
  const unsigned mask = legal_mask(rules(), pos_);
  int codes[kNumMoveCodes];
  int n = 0;
  int best = -1;
  int best_gain = 0;
  for (int code = 0; code < kNumMoveCodes; ++code) {
    if (!(mask & (1u << code))) continue;
    codes[n++] = code;
    const int g = immediate_gain(rules(), pos_, code);
    if (g > best_gain) {
      best_gain = g;
      best = code;
    }
  }
  // Take the best capture half of the time; otherwise any legal move.
  if (best >= 0 && rng.below(2) == 0) return Move{static_cast<Move::Code>(best)};
  return Move{static_cast<Move::Code>(codes[rng.below(static_cast<std::uint32_t>(n))])};
}

}  // namespace plateau::bohnduell
