// Biloba's evaluation: pawns dominate; threats, flanks (half-made sandwiches), the leader's
// closing in and the elimination rule of §6.2 steer play when no capture is in sight, so that the
// side ahead makes progress instead of shuffling (issue 14). Every term is computed on bitboards
// (biloba_bits.h) from one read of the cells, with no allocation: the search evaluates every
// leaf. The values are those of the first, square-by-square version bit for bit (sums of
// doubles in the same order), which biloba_eval_test.cpp keeps as its reference.
#include "games/biloba/biloba_eval.h"

#include <algorithm>
#include <cmath>

#include "games/biloba/biloba_bits.h"
#include "games/biloba/biloba_game.h"
#include "games/biloba/biloba_threats.h"

namespace plateau::biloba {

namespace {

// 4 − the king-move (Chebyshev) distance from each square to e5, 0 beyond 4 (centrality).
struct CentreWeights {
  std::array<std::uint8_t, kSquares> w{};
  constexpr CentreWeights() {
    for (int sq = 0; sq < kSquares; ++sq) {
      const int dx = x_of(sq) > 4 ? x_of(sq) - 4 : 4 - x_of(sq);
      const int dy = y_of(sq) > 4 ? y_of(sq) - 4 : 4 - y_of(sq);
      w[sq] = static_cast<std::uint8_t>(4 - (dx > dy ? dx : dy));
    }
  }
};
constexpr CentreWeights kCentreWeights;

// A target's share of closeness when the nearest own pawn is `best` king moves away, the
// expression of the first version evaluated once (kSize when there is no own pawn at all).
struct CloseShares {
  std::array<double, kSize + 1> share{};
  constexpr CloseShares() {
    for (int best = 0; best <= kSize; ++best) {
      share[best] = static_cast<double>(kSize - 1 - best) / (kSize - 2);
    }
  }
};
constexpr CloseShares kCloseShares;

// The squares within one king move of `x` (x included), over the whole 9×9 grid: distances
// are geometric, as the closeness term measures them.
inline Bits king_grow(Bits x) {
  const Bits row = x | shifted_by<1>(x) | shifted_by<6>(x);  // west, east
  return row | shifted_by<3>(row) | shifted_by<4>(row);      // north, south
}

// Enemy pawns E with a pawn of `own` next to them and, on the far side of E, an empty square
// a pawn could stand on (playable, not the centre): one more pawn there sandwiches E (§4.1).
// next_to[d]: the squares with an own pawn at X + d; landing_at[d]: the squares X with a landing
// square (empty, not the centre) at X + d.
int count_flanks(const std::array<Bits, kDirections>& next_to,
                 const std::array<Bits, kDirections>& landing_at, Bits own, Bits pawns) {
  const Bits enemy = pawns & ~own;
  Bits flanked = 0;
  for (int d = 0; d < kDirections; ++d) {
    // E = P + d with P own (E has an own pawn at E − d), and E + d a landing square.
    flanked |= next_to[7 - d] & enemy & landing_at[d];
  }
  return count_of(flanked);
}

// The mean over the target pawns (the seats in `target_seats`, in seat then square order, as
// the first version summed them) of (kSize − 1 − distance to the nearest own pawn) / (kSize − 2).
double closeness(const CellSets& sets, Bits own, int players, unsigned target_seats) {
  Bits all = 0;
  for (int o = 0; o < players; ++o) {
    if (target_seats & (1u << o)) all |= sets.colour[o];
  }
  if (all == 0) return 0.0;
  // within[k]: squares at most k king moves from an own pawn; grown until every target is in.
  std::array<Bits, kSize> within{};
  within[0] = own;
  int levels = 0;
  while (levels < kSize - 1 && (all & ~within[levels]) != 0) {
    within[levels + 1] = king_grow(within[levels]);
    ++levels;
  }
  // Each target's distance, read off the rings within[k] \ within[k − 1] (no pawn of its own
  // at distance 0); kSize when there is no own pawn at all.
  std::array<std::uint8_t, kSquares> dist;
  for (int k = 1; k <= levels; ++k) {
    const auto at_k = static_cast<std::uint8_t>(k);
    for_each_square(all & within[k] & ~within[k - 1], [&](int t) { dist[t] = at_k; });
  }
  for_each_square(all & ~within[levels], [&](int t) { dist[t] = kSize; });
  double sum = 0.0;
  for (int o = 0; o < players; ++o) {
    if (!(target_seats & (1u << o))) continue;
    for_each_square(sets.colour[o], [&](int t) { sum += kCloseShares.share[dist[t]]; });
  }
  return sum / count_of(all);
}

// The evaluation into e[0..players-1]; `draw` null when the no-progress pull is off.
void evaluate_into(const Position& pos, double no_progress, const double* draw,
                   std::array<double, kMaxColours>& e) {
  const int n = pos.players;
  std::array<SeatTerms, kMaxColours> t;
  fill_seat_terms(pos, t, /*every_closeness=*/false);
  e.fill(0.0);
  if (n == 2) {
    const double a = 1.0 / (1.0 + std::exp(-0.5 * (t[0].material - t[1].material)));
    e[0] = a;
    e[1] = 1.0 - a;
  } else {
    double sum = 0.0;
    for (int s = 0; s < n; ++s) {
      if (pos.count[s] > 0) sum += e[s] = std::exp(0.5 * t[s].material);
    }
    for (int s = 0; s < n; ++s) e[s] /= sum;
  }
  const double w = std::clamp(no_progress, 0.0, 1.0);
  if (w > 0.0 && draw != nullptr) {
    for (int s = 0; s < n; ++s) e[s] = (1 - w * w) * e[s] + w * w * draw[s];
  }
}

}  // namespace

void fill_seat_terms(const Position& pos, std::array<SeatTerms, kMaxColours>& t,
                     bool every_closeness) {
  const int n = pos.players;
  const CellSets sets = cell_sets(pos.cell);
  Bits pawns = 0;
  // next_to[c][d]: squares with a pawn of colour c at X + d (for threats and flanks alike).
  std::array<std::array<Bits, kDirections>, kMaxColours> next_to;
  std::array<Bits, kMaxColours> threats{};  // squares each colour threatens
  unsigned big = 0;                         // seats with ≥ 3 pawns: the closeness targets
  for (int s = 0; s < n; ++s) {
    pawns |= sets.colour[s];
    for_each_direction([&](auto d) { next_to[s][d] = reaching_by<d>(sets.colour[s]); });
    threats[s] = threat_squares(sets, s, next_to[s]);
    if (pos.count[s] >= 3) big |= 1u << s;
  }
  const Bits landing = sets.empty & ~bit(kCentre);  // empty cells are playable ones
  std::array<Bits, kDirections> landing_at;
  for_each_direction([&](auto d) { landing_at[d] = reaching_by<d>(landing); });
  for (int s = 0; s < n; ++s) {
    SeatTerms& st = t[s];
    st = SeatTerms{};
    st.pawns = pos.count[s];
    if (st.pawns == 0) continue;
    const Bits own = sets.colour[s];
    Bits threatened = 0;
    for (int e = 0; e < n; ++e) {
      if (e != s) threatened |= threats[e];
    }
    st.threatened = count_of(own & threatened);
    st.flanks = count_flanks(next_to[s], landing_at, own, pawns);
    st.doomed = st.pawns <= 2 && !can_eat_soon(pos, s);
    // Closeness to the pawns that must be sandwiched (seats with ≥ 3 pawns; a seat with 1-2
    // pawns falls to §6.2 unless it stands next to an enemy, so it is left alone).
    if (every_closeness) st.closeness = closeness(sets, own, n, big & ~(1u << s));
    // The mean of (4 − distance to e5) / 4: each term a multiple of 1/4, so the sum of the
    // first version is exact and equals the integer sum divided by 4.
    int centre = 0;
    for_each_square(own, [&centre](int sq) { centre += kCentreWeights.w[sq]; });
    st.centrality = centre / 4.0 / st.pawns;
    st.material = st.doomed ? 0.0
                            : st.pawns - kThreatWeight * st.threatened +
                                  kFlankWeight * std::min(st.flanks, kMaxFlanks) +
                                  kCentreWeight * st.centrality;
  }
  // The lead over the strongest other seat decides how much closing in is worth.
  for (int s = 0; s < n; ++s) {
    if (t[s].pawns == 0 || t[s].doomed) continue;
    double strongest = 0.0;
    for (int o = 0; o < n; ++o) {
      if (o != s) strongest = std::max(strongest, t[o].material);
    }
    const double lead = std::clamp(t[s].material - strongest, 0.0, 3.0);
    // Without a lead the term is 0 whatever the closeness: computed only when it counts.
    if (!every_closeness && lead > 0.0) {
      t[s].closeness = closeness(sets, sets.colour[s], n, big & ~(1u << s));
    }
    t[s].material += kCloseWeight * lead * t[s].closeness;
  }
  if (pos.to_move >= 0 && pos.to_move < n && !t[pos.to_move].doomed) {
    t[pos.to_move].material += kTempo;
  }
}

std::vector<SeatTerms> seat_terms(const Position& pos) {
  std::array<SeatTerms, kMaxColours> t;
  fill_seat_terms(pos, t);
  return {t.begin(), t.begin() + pos.players};
}

void draw_values(const Position& pos, std::array<double, kMaxColours>& v) {
  const int n = pos.players;
  int alive = 0;
  for (int s = 0; s < n; ++s) alive += pos.count[s] > 0 ? 1 : 0;
  v.fill(0.0);
  for (int s = 0; s < n; ++s) {
    if (alive < 2) {
      v[s] = 1.0 / n;
    } else if (pos.count[s] > 0) {
      v[s] = 1.0 / alive;
    }
  }
}

std::vector<double> evaluate_position(const Position& pos, double no_progress,
                                      const std::vector<double>& draw) {
  std::array<double, kMaxColours> e;
  const bool pull = draw.size() == static_cast<std::size_t>(pos.players);
  evaluate_into(pos, no_progress, pull ? draw.data() : nullptr, e);
  return {e.begin(), e.begin() + pos.players};
}

std::vector<double> BilobaState::evaluate() const {
  if (outcome_ != Outcome::kOngoing) return returns();
  // Progress pressure: quiet turns against the table's no_progress limit (0 = off: none).
  const int limit = game_->no_progress();
  const double quiet = limit > 0 ? static_cast<double>(quiet_turns()) / limit : 0.0;
  std::array<double, kMaxColours> e;
  if (quiet <= 0.0) {
    evaluate_into(pos_, 0.0, nullptr, e);
  } else {
    std::array<double, kMaxColours> draw;
    draw_values(pos_, draw);
    evaluate_into(pos_, quiet, draw.data(), e);
  }
  return {e.begin(), e.begin() + pos_.players};
}

}  // namespace plateau::biloba
