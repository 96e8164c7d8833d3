// The Biloba evaluation (biloba_eval.h) gives exactly the values of its first, square-by-square
// implementation, kept below as the reference: every field of seat_terms and every value of
// evaluate_position, compared bit for bit (EXPECT_EQ on doubles), on the positions of random 2-,
// 3- and 4-player games. The fast version (bitboards, no allocation) must not change a single
// value: the levels would play other moves and the measured matches of docs/AI.md would no
// longer describe them.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "core/registry.h"
#include "games/biloba/biloba_classic.h"
#include "games/biloba/biloba_eval.h"
#include "games/biloba/biloba_game.h"
#include "games/register.h"

namespace plateau::biloba {
namespace {

// ---- The reference: biloba_eval.cpp as of commit 5240fbd, unchanged but for its names. ----
namespace reference {

int chebyshev(int a, int b) {
  const int dx = std::abs(x_of(a) - x_of(b));
  const int dy = std::abs(y_of(a) - y_of(b));
  return std::max(dx, dy);
}

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

std::vector<SeatTerms> seat_terms(const Position& pos) {
  const int n = pos.players;
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
    st.threatened = threatened_count(pos, s);  // the classic player's count (biloba_classic.h)
    st.flanks = count_flanks(pos, s, squares[s].data(), count[s]);
    st.doomed = st.pawns <= 2 && !can_eat_soon(pos, s);
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
  const std::vector<SeatTerms> t = reference::seat_terms(pos);
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

}  // namespace reference

// What the positions covered (so that the comparison means something).
struct Coverage {
  int positions = 0;
  int doomed = 0;      // a seat doomed by §6.2
  int flanks = 0;      // a seat with a flank
  int threatened = 0;  // a seat with a threatened pawn
  int leads = 0;       // a seat with closeness > 0 and a lead (the closing-in bonus)
};

void compare(const Position& pos, const std::string& where, Coverage& cov) {
  const std::vector<SeatTerms> want = reference::seat_terms(pos);
  const std::vector<SeatTerms> got = seat_terms(pos);
  ASSERT_EQ(got.size(), want.size()) << where;
  ++cov.positions;
  for (std::size_t s = 0; s < want.size(); ++s) {
    const SeatTerms& w = want[s];
    const SeatTerms& g = got[s];
    const std::string at = where + " seat " + std::to_string(s);
    EXPECT_EQ(g.pawns, w.pawns) << at;
    EXPECT_EQ(g.threatened, w.threatened) << at;
    EXPECT_EQ(g.flanks, w.flanks) << at;
    EXPECT_EQ(g.closeness, w.closeness) << at;
    EXPECT_EQ(g.centrality, w.centrality) << at;
    EXPECT_EQ(g.doomed, w.doomed) << at;
    EXPECT_EQ(g.material, w.material) << at;
    cov.doomed += w.doomed ? 1 : 0;
    cov.flanks += w.flanks > 0 ? 1 : 0;
    cov.threatened += w.threatened > 0 ? 1 : 0;
    cov.leads += w.closeness > 0 && w.material > w.pawns + 0.7 ? 1 : 0;
  }
  const std::vector<double> draw(want.size(), 1.0 / static_cast<double>(want.size()));
  for (double np : {0.0, 0.3, 1.0}) {
    EXPECT_EQ(evaluate_position(pos, np, draw), reference::evaluate_position(pos, np, draw))
        << where << " no_progress " << np;
  }
}

// Random games of `spec`: uniform over legal turns (`biased` = false) or the playout policy,
// which captures half the time and so reaches the endings with few pawns.
Coverage check(const std::string& spec, int games, std::uint64_t seed, bool biased) {
  register_builtin_games();
  auto game = make_game(spec + (spec.find('(') == std::string::npos ? "(no_progress=0)" : ""));
  Rng rng(seed);
  Coverage cov;
  for (int g = 0; g < games; ++g) {
    auto state = game->initial_state();
    for (int ply = 0; ply < 300 && !state->is_terminal(); ++ply) {
      const Position& pos = static_cast<const BilobaState&>(*state).position();
      compare(pos, state->serialize(), cov);
      if (biased) {
        state->apply(state->playout_move(rng));
      } else {
        const auto moves = state->legal_moves();
        state->apply(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
      }
    }
  }
  return cov;
}

TEST(BilobaEvalExact, TwoPlayers) {
  const Coverage u = check("biloba", 3, 21, false);
  const Coverage b = check("biloba", 6, 22, true);
  EXPECT_GT(u.positions + b.positions, 600);
  EXPECT_GT(b.doomed, 0);
  EXPECT_GT(u.flanks + b.flanks, 100);
  EXPECT_GT(u.threatened + b.threatened, 100);
  EXPECT_GT(u.leads + b.leads, 10);
}

TEST(BilobaEvalExact, ThreePlayers) {
  const Coverage u = check("biloba(players=3,no_progress=0)", 3, 31, false);
  const Coverage b = check("biloba(players=3,no_progress=0)", 6, 32, true);
  EXPECT_GT(u.positions + b.positions, 600);
  EXPECT_GT(b.doomed, 0);
  EXPECT_GT(u.flanks + b.flanks, 100);
  EXPECT_GT(u.threatened + b.threatened, 100);
}

TEST(BilobaEvalExact, FourPlayers) {
  const Coverage u = check("biloba(players=4,no_progress=0)", 3, 41, false);
  const Coverage b = check("biloba(players=4,no_progress=0)", 6, 42, true);
  EXPECT_GT(u.positions + b.positions, 600);
  EXPECT_GT(b.doomed, 0);
  EXPECT_GT(u.flanks + b.flanks, 100);
  EXPECT_GT(u.threatened + b.threatened, 100);
}

TEST(BilobaEvalExact, HandMadeCorners) {
  // Pawns on the board's edges and corners next to the decorative cells (shifts must not wrap
  // round a side), the centre flanked and open, a seat with one pawn.
  register_builtin_games();
  auto game = make_game("biloba(players=4)");
  Coverage cov;
  for (const char* text :
       {"##O...B##/#B.....O#/O.......B/B.......O/..OB*G.../R.......G/G.......R/#R.....G#/"
        "##G...R## O 4",
        "##.....##/#.......#/........./...OBO.../...B*B.../...OBO.../........./#.......#/"
        "##.....## B 4",
        "##.....##/#O......#/........./........./....*..../........./........./#......G#/"
        "##R...B## G 4"}) {
    auto s = game->parse_state(text);
    compare(static_cast<const BilobaState&>(*s).position(), text, cov);
  }
  EXPECT_EQ(cov.positions, 3);
}

}  // namespace
}  // namespace plateau::biloba
