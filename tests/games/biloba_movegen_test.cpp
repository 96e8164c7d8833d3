// The fast Biloba engine (biloba_movegen.h and the BilobaState hooks built on it) against the
// Turn machine it replaces, position by position on random games of 2, 3 and 4 players: the
// same legal_moves() in the same order, the same position after apply() (pawn identity
// included), the same distinct_moves() under every budget (moves, work spent, truncation), the
// same order_moves(). The references below are the engine's code before the fast path.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <set>

#include "core/perft.h"
#include "core/registry.h"
#include "games/biloba/biloba_game.h"
#include "games/biloba/biloba_movegen.h"
#include "games/register.h"

namespace plateau::biloba {
namespace {

const BilobaState& bs(const State& s) { return static_cast<const BilobaState&>(s); }

std::vector<Move> reference_legal(const BilobaState& s) {
  std::vector<Move> moves;
  if (s.is_terminal()) return moves;
  for_each_turn(s.start_turn(), [&moves](const Turn& t) { moves.push_back(t.token()); });
  return moves;
}

Position reference_after(const BilobaState& s, const Move& move) {
  Turn turn = s.start_turn();
  for (Move::Code code : move) {
    if (code < kSquares) turn.choose(code);
  }
  Position after = turn.position();
  if (static_cast<const BilobaGame&>(*s.game()).turn_cap() > 0) ++after.turns;  // apply counts
  return after;
}

// The bounded walk and the set of boards as they were written before BoundedChoices.
std::vector<Move> reference_distinct(const BilobaState& s, WorkBudget& budget) {
  std::vector<Move> moves;
  if (s.is_terminal()) return moves;
  std::set<std::array<std::uint8_t, kSquares>> seen;
  std::uint64_t visited = budget.used;
  bool halted = false;
  auto walk = [&](auto& self, const Turn& t) -> void {
    if (t.done()) {
      if (seen.insert(t.position().cell).second) moves.push_back(t.token());
      return;
    }
    std::array<std::uint8_t, kSquares> options;
    const int n = t.choices(options);
    for (int i = 0; i < n; ++i) {
      if (i > 0 && (halted || visited >= budget.limit)) {
        halted = true;
        return;
      }
      if (++visited % 1024 == 0 && budget.stop && budget.stop()) halted = true;
      Turn next = t;
      next.choose(options[i]);
      self(self, next);
    }
  };
  walk(walk, s.start_turn());
  budget.used = visited;
  if (halted) budget.truncated = true;
  return moves;
}

void reference_order(const BilobaState& s, std::vector<Move>& moves) {
  if (s.is_terminal() || moves.size() < 2) return;
  const Position& before = s.position();
  std::vector<std::pair<int, std::size_t>> keyed;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Position after = reference_after(s, moves[i]);
    int gain = 0;
    for (int seat = 0; seat < before.players; ++seat) {
      const int lost = before.count[seat] - after.count[seat];
      gain += seat == before.to_move ? -lost : lost;
    }
    keyed.emplace_back(-gain, i);
  }
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Move> sorted;
  for (const auto& k : keyed) sorted.push_back(moves[k.second]);
  moves = sorted;
}

// The playout policy as it was: one bounded pass over the turns, the best capture half of the
// time, otherwise any turn.
Move reference_playout_move(const BilobaState& s, Rng& rng) {
  std::vector<Move> all;
  int best_gain = 0;
  std::size_t best = 0;
  const Position& before = s.position();
  std::uint64_t visited = 0;
  for_each_turn_bounded(
      s.start_turn(),
      [&](const Turn& t) {
        int g = 0;
        for (int seat = 0; seat < before.players; ++seat) {
          const int lost = before.count[seat] - t.position().count[seat];
          g += seat == before.to_move ? -lost : lost;
        }
        if (g > best_gain) {
          best_gain = g;
          best = all.size();
        }
        all.push_back(t.token());
      },
      20'000, &visited, [] { return false; });
  if (best_gain > 0 && rng.below(2) == 0) return all[best];
  return all[rng.below(static_cast<std::uint32_t>(all.size()))];
}

bool same_position(const Position& a, const Position& b) {
  return a == b && a.pawn_id == b.pawn_id && a.count == b.count;
}

struct Coverage {
  int positions = 0;
  int quiet_walks = 0;       // centre walks that capture nothing
  int capturing_bodies = 0;  // positions where some move captures (refills follow)
  int start_captures = 0;    // turns that start with `x`
  int eliminations = 0;      // `out` / `+out`
};

// Plays `games` random games of `spec` for at most `max_plies` plies, checking every position.
Coverage check_random_games(const std::string& spec, int games, int max_plies, std::uint64_t seed) {
  register_builtin_games();
  auto game = make_game(spec);
  Rng rng(seed);
  Coverage cov;
  for (int g = 0; g < games; ++g) {
    auto state = game->initial_state();
    for (int ply = 0; ply < max_plies && !state->is_terminal(); ++ply) {
      const BilobaState& s = bs(*state);
      ++cov.positions;
      const std::vector<Move> moves = s.legal_moves();
      const std::vector<Move> expected = reference_legal(s);
      EXPECT_EQ(moves, expected) << s.serialize();
      if (moves != expected) return cov;
      bool capturing = false;
      for (const Move& m : moves) {
        auto child = state->clone();
        child->apply(m);
        const Position want = reference_after(s, m);
        EXPECT_TRUE(same_position(bs(*child).position(), want))
            << s.serialize() << " " << s.move_to_string(m);
        if (m[0] >= kSquares) {
          if (m[0] == kCodeX) ++cov.start_captures;
          if (m.back() == kCodeOut || m.back() == kCodePlusOut) ++cov.eliminations;
        } else if (m.size() > 3) {
          capturing = true;
        } else if (m.size() == 3) {
          ++cov.quiet_walks;
        }
      }
      if (capturing) ++cov.capturing_bodies;
      for (std::uint64_t limit : {std::uint64_t{1}, std::uint64_t{5}, std::uint64_t{40},
                                  std::uint64_t{150}, std::numeric_limits<std::uint64_t>::max()}) {
        WorkBudget fast(limit), ref(limit);
        fast.used = ref.used = 3;
        const std::vector<Move> got = s.bounded_distinct_moves(fast);
        EXPECT_EQ(got, reference_distinct(s, ref)) << s.serialize() << " limit " << limit;
        EXPECT_EQ(fast.used, ref.used) << s.serialize() << " limit " << limit;
        EXPECT_EQ(fast.truncated, ref.truncated) << s.serialize() << " limit " << limit;
      }
      std::vector<Move> ordered = s.distinct_moves(), want_order = ordered;
      s.order_moves(ordered);
      reference_order(s, want_order);
      EXPECT_EQ(ordered, want_order) << s.serialize();
      Rng fast_rng(seed + ply), ref_rng(seed + ply);
      for (int k = 0; k < 3; ++k) {
        EXPECT_EQ(s.playout_move(fast_rng), reference_playout_move(s, ref_rng)) << s.serialize();
      }
      state->apply(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
    }
  }
  return cov;
}

TEST(BilobaMovegen, TwoPlayersMatchTheTurnMachine) {
  const Coverage cov = check_random_games("biloba", 12, 400, 1);
  EXPECT_GT(cov.quiet_walks, 0);
  EXPECT_GT(cov.capturing_bodies, 100);
  EXPECT_GT(cov.start_captures, 0);
  EXPECT_GT(cov.eliminations, 0);
}

TEST(BilobaMovegen, ThreePlayersMatchTheTurnMachine) {
  const Coverage cov = check_random_games("biloba(players=3)", 10, 400, 2);
  EXPECT_GT(cov.capturing_bodies, 50);
  EXPECT_GT(cov.start_captures, 0);
}

TEST(BilobaMovegen, FourPlayersMatchTheTurnMachine) {
  const Coverage cov = check_random_games("biloba(players=4)", 10, 400, 3);
  EXPECT_GT(cov.capturing_bodies, 50);
  EXPECT_GT(cov.start_captures, 0);
}

TEST(BilobaMovegen, WaitingSeatsAndTurnCapMatchTheTurnMachine) {
  check_random_games("biloba(no_legal_move=wait,turn_cap=120)", 4, 200, 4);
}

TEST(BilobaMovegen, TurnBoardAtTheStart) {
  // 2-player start, orange to move: no sandwich stands, and no single move captures (the
  // armies are two rows apart), so every square has no flanker.
  const Position pos = start_position(2);
  const TurnBoard a(pos, 0);
  EXPECT_FALSE(a.sandwich_now);
  EXPECT_EQ(std::count(a.arrivals.begin(), a.arrivals.end(), 0), kSquares);
  EXPECT_EQ(a.own, cells_equal(pos.cell, 0));
  EXPECT_EQ(a.empty, cells_equal(pos.cell, kEmpty));
  EXPECT_TRUE(plain_turn_start(pos, a));
}

// perft(4) from the 2-player start, counted with the Turn machine before the fast path
// (`plateau perft biloba 4` at 860fd7a) and pinned here.
TEST(BilobaMovegen, PerftDepth4FromTheTwoPlayerStart) {
  register_builtin_games();
  auto two = make_game("biloba")->initial_state();
  EXPECT_EQ(perft(*two, 4), 21'295'422u);
}

}  // namespace
}  // namespace plateau::biloba
