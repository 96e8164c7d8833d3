// Biloba's evaluation: pawns dominate; threats, flanks (half-made sandwiches), the leader's
// closing in and the elimination rule of §6.2 steer play when no capture is in sight, so that the
// side ahead makes progress instead of shuffling (issue 14).
#include "games/biloba/biloba_eval.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "games/biloba/biloba_classic.h"
#include "games/biloba/biloba_game.h"
#include "games/biloba/biloba_threats.h"

namespace plateau::biloba {

namespace {

// King-move distances between the 81 cells, computed once: the closeness term asks for
// hundreds of them per evaluation, and x_of/y_of divide.
struct KingDistances {
  std::array<std::array<std::uint8_t, kSquares>, kSquares> d{};
  constexpr KingDistances() {
    for (int a = 0; a < kSquares; ++a) {
      for (int b = 0; b < kSquares; ++b) {
        const int dx = x_of(a) > x_of(b) ? x_of(a) - x_of(b) : x_of(b) - x_of(a);
        const int dy = y_of(a) > y_of(b) ? y_of(a) - y_of(b) : y_of(b) - y_of(a);
        d[a][b] = static_cast<std::uint8_t>(dx > dy ? dx : dy);
      }
    }
  }
};
constexpr KingDistances kKingDistances;

int chebyshev(int a, int b) { return kKingDistances.d[a][b]; }

// Enemy pawns E with a pawn of `colour` next to them and, on the far side of E, an empty square
// a pawn could stand on (playable, not the centre): one more pawn there sandwiches E (§4.1).
int count_flanks(const Position& pos, int colour, const std::uint8_t* own, int own_count) {
  std::array<bool, kSquares> seen{};
  int n = 0;
  for (int i = 0; i < own_count; ++i) {
    const int p = own[i];
    for (int d = 0; d < kDirections; ++d) {
      const int e = neighbour(p, d);
      if (e < 0 || seen[e] || pos.cell[e] >= kMaxColours || pos.cell[e] == colour) continue;
      const int t = beyond(p, d);
      if (t < 0 || t == kCentre || pos.cell[t] != kEmpty) continue;
      seen[e] = true;
      ++n;
    }
  }
  return n;
}

}  // namespace

std::vector<SeatTerms> seat_terms(const Position& pos) {
  const int n = pos.players;
  // The squares of each colour's pawns (a colour has at most 16; no allocation).
  std::array<std::array<std::uint8_t, kSquares>, kMaxColours> squares;
  std::array<int, kMaxColours> count{};
  for (int sq = 0; sq < kSquares; ++sq) {
    const int c = pos.cell[sq];
    if (c < kMaxColours) squares[c][count[c]++] = static_cast<std::uint8_t>(sq);
  }
  std::vector<SeatTerms> t(static_cast<std::size_t>(n));
  for (int s = 0; s < n; ++s) {
    SeatTerms& st = t[s];
    st.pawns = pos.count[s];
    if (st.pawns == 0) continue;
    st.threatened = threatened_count_fast(pos, s);
    st.flanks = count_flanks(pos, s, squares[s].data(), count[s]);
    st.doomed = st.pawns <= 2 && !can_eat_soon(pos, s);
    // Closeness to the pawns that must be sandwiched (seats with ≥ 3 pawns; a seat with 1-2
    // pawns falls to §6.2 unless it stands next to an enemy, so it is left alone).
    int targets = 0;
    double sum = 0.0;
    for (int o = 0; o < n; ++o) {
      if (o == s || pos.count[o] < 3) continue;
      for (int j = 0; j < count[o]; ++j) {
        int best = kSize;
        for (int i = 0; i < count[s]; ++i) {
          best = std::min(best, chebyshev(squares[s][i], squares[o][j]));
        }
        sum += static_cast<double>(kSize - 1 - best) / (kSize - 2);
        ++targets;
      }
    }
    st.closeness = targets > 0 ? sum / targets : 0.0;
    double centre = 0.0;
    for (int i = 0; i < count[s]; ++i) centre += (4.0 - chebyshev(squares[s][i], kCentre)) / 4.0;
    st.centrality = centre / st.pawns;
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
    t[s].material += kCloseWeight * lead * t[s].closeness;
  }
  if (pos.to_move >= 0 && pos.to_move < n && !t[pos.to_move].doomed) {
    t[pos.to_move].material += kTempo;
  }
  return t;
}

std::vector<double> evaluate_position(const Position& pos, double no_progress,
                                      const std::vector<double>& draw) {
  const int n = pos.players;
  const std::vector<SeatTerms> t = seat_terms(pos);
  std::vector<double> e(static_cast<std::size_t>(n), 0.0);
  if (n == 2) {
    const double a = 1.0 / (1.0 + std::exp(-0.5 * (t[0].material - t[1].material)));
    e = {a, 1.0 - a};
  } else {
    double sum = 0.0;
    for (int s = 0; s < n; ++s) {
      if (pos.count[s] > 0) sum += e[s] = std::exp(0.5 * t[s].material);
    }
    for (double& v : e) v /= sum;
  }
  const double w = std::clamp(no_progress, 0.0, 1.0);
  if (w > 0.0 && draw.size() == e.size()) {
    for (std::size_t s = 0; s < e.size(); ++s) e[s] = (1 - w * w) * e[s] + w * w * draw[s];
  }
  return e;
}

std::vector<double> BilobaState::evaluate() const {
  if (outcome_ != Outcome::kOngoing) return returns();
  // Progress pressure: quiet turns against the table's no_progress limit (0 = off: none).
  const int limit = game_->no_progress();
  const double quiet = limit > 0 ? static_cast<double>(quiet_turns()) / limit : 0.0;
  if (quiet <= 0.0) return evaluate_position(pos_, 0.0, {});
  return evaluate_position(pos_, quiet, no_progress_values());
}

}  // namespace plateau::biloba
