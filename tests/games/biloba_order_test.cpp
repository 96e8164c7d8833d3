// order_moves (biloba_ai.cpp) puts the turns that win the most pawns first and keeps the list's
// order among equal gains, whether it takes the gains from the generator's per-thread memo (a
// list straight from distinct_moves) or replays the turns (any other list: here the same list
// reversed, and a list made for another position in between). The oracle applies every turn to a
// clone and counts pawns. ordered_distinct_moves (biloba_lists.cpp), the search's one-pass list,
// is bounded_distinct_moves then order_moves exactly: the same list, work and truncation under
// budgets that cut it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/registry.h"
#include "games/biloba/biloba_gains.h"
#include "games/biloba/biloba_game.h"
#include "games/register.h"

namespace plateau::biloba {
namespace {

// Pawns of the other seats the turn removes, less the mover's own.
int gain_of(const State& s, const Move& m) {
  const Position& before = static_cast<const BilobaState&>(s).position();
  auto c = s.clone();
  c->apply(m);
  const Position& after = static_cast<const BilobaState&>(*c).position();
  int gain = 0;
  for (int seat = 0; seat < before.players; ++seat) {
    const int lost = before.count[seat] - after.count[seat];
    gain += seat == before.to_move ? -lost : lost;
  }
  return gain;
}

std::vector<Move> expected_order(const State& s, std::vector<Move> moves) {
  std::vector<std::pair<int, std::size_t>> keyed;
  for (std::size_t i = 0; i < moves.size(); ++i) keyed.emplace_back(-gain_of(s, moves[i]), i);
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Move> out;
  for (const auto& k : keyed) out.push_back(moves[k.second]);
  return out;
}

// Positions of random games checked, and how many had a turn that wins pawns.
int check(const std::string& spec, std::uint64_t seed) {
  register_builtin_games();
  auto game = make_game(spec);
  Rng rng(seed);
  int with_gain = 0;
  for (int g = 0; g < 3; ++g) {
    auto s = game->initial_state();
    auto other = game->initial_state();
    for (int ply = 0; ply < 200 && !s->is_terminal(); ++ply) {
      std::vector<Move> straight = s->distinct_moves();
      const std::vector<Move> plain = straight;
      s->order_moves(straight);  // the memo's path
      const std::vector<Move> want = expected_order(*s, plain);
      EXPECT_EQ(straight, want) << s->serialize();
      std::vector<Move> reversed(plain.rbegin(), plain.rend());
      (void)other->distinct_moves();  // the memo now holds another position
      s->order_moves(reversed);       // replayed
      EXPECT_EQ(reversed, expected_order(*s, std::vector<Move>(plain.rbegin(), plain.rend())))
          << s->serialize();
      for (std::uint64_t limit : {std::uint64_t{20}, std::uint64_t{200}, std::uint64_t{5'000},
                                  ~std::uint64_t{0}}) {
        WorkBudget one_pass{limit};
        WorkBudget two_calls{limit};
        std::vector<Move> bounded = s->bounded_distinct_moves(two_calls);
        s->order_moves(bounded);
        EXPECT_EQ(s->ordered_distinct_moves(one_pass), bounded) << s->serialize() << " " << limit;
        EXPECT_EQ(one_pass.used, two_calls.used);
        EXPECT_EQ(one_pass.truncated, two_calls.truncated);
      }
      with_gain += !want.empty() && gain_of(*s, want.front()) > 0 ? 1 : 0;
      s->apply(s->playout_move(rng));
    }
  }
  return with_gain;
}

TEST(BilobaOrder, CapturesFirstFromTheMemoOrReplayed) {
  EXPECT_GT(check("biloba", 5), 20);
  EXPECT_GT(check("biloba(players=3)", 6), 20);
  EXPECT_GT(check("biloba(players=4)", 7), 20);
}

TEST(BilobaOrder, OrderByGainIsTheStableSortInPlace) {
  // Lists of up to 40 moves with random gains in −2..2 (most 0), winners and losers mixed,
  // against std::stable_sort by −gain.
  Rng rng(3);
  for (int round = 0; round < 2000; ++round) {
    const std::size_t n = 1 + rng.below(40);
    std::vector<Move> moves;
    std::vector<int> gain;
    std::vector<std::pair<int, std::size_t>> keyed;
    for (std::size_t i = 0; i < n; ++i) {
      moves.push_back(Move{static_cast<Move::Code>(i), static_cast<Move::Code>(rng.below(81))});
      const int g = rng.below(3) == 0 ? static_cast<int>(rng.below(5)) - 2 : 0;
      gain.push_back(g);
      if (g != 0) keyed.emplace_back(-g, i);
    }
    std::vector<std::size_t> want(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = i;
    std::stable_sort(want.begin(), want.end(),
                     [&](std::size_t a, std::size_t b) { return gain[a] > gain[b]; });
    std::vector<Move> expected;
    for (std::size_t i : want) expected.push_back(moves[i]);
    order_by_gain(moves, keyed);
    ASSERT_EQ(moves, expected) << "round " << round;
  }
}

}  // namespace
}  // namespace plateau::biloba
