// The game-agnostic search library on positions whose values are known by hand (take-away,
// toy_game.h) and on BohnDuell: forced wins, proofs, determinism, tree reuse, budgets with an
// injected clock, Elo arithmetic and the match runner.
#include <gtest/gtest.h>

#include <cmath>

#include "ai/alphabeta.h"
#include "ai/bot.h"
#include "ai/elo.h"
#include "ai/match.h"
#include "ai/mcts.h"
#include "core/error.h"
#include "core/record.h"
#include "core/registry.h"
#include "games/register.h"
#include "toy_game.h"

namespace plateau {
namespace {

using testing::take_away;

int taken(const ai::SearchResult& r) { return r.best[0]; }

TEST(Mcts, ProvesTheWinningTakeInTwoSeatTakeAway) {
  // Pile n: the winning take leaves a multiple of 4.
  for (int pile : {5, 6, 7, 9, 10, 11}) {
    auto s = take_away(2, pile)->initial_state();
    ai::Mcts mcts(ai::MctsOptions{});
    ai::SearchLimits limits;
    limits.budget = 20000;
    ai::SearchResult r = mcts.search(*s, limits);
    EXPECT_EQ(taken(r), pile % 4) << "pile " << pile;
    EXPECT_TRUE(r.exact) << "pile " << pile;
    EXPECT_DOUBLE_EQ(r.value, 1.0);
    EXPECT_LT(r.iterations, 20000u) << "a proven root stops the search early";
  }
}

TEST(Mcts, ProvesALostPosition) {
  auto s = take_away(2, 8)->initial_state();
  ai::Mcts mcts(ai::MctsOptions{});
  ai::SearchLimits limits;
  limits.budget = 20000;
  ai::SearchResult r = mcts.search(*s, limits);
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.value, 0.0);
}

TEST(Mcts, TakesAnImmediateWinWithFourSeats) {
  auto s = take_away(4, 3)->initial_state();
  ai::Mcts mcts(ai::MctsOptions{});
  ai::SearchLimits limits;
  limits.budget = 200;
  EXPECT_EQ(taken(mcts.search(*s, limits)), 3);
}

TEST(Mcts, SameSeedSameMoves) {
  register_builtin_games();
  auto game = make_game("bohnduell");
  for (int run = 0; run < 2; ++run) {
    static std::vector<Move> first;
    ai::MctsOptions o;
    o.seed = 42;
    ai::Mcts mcts(o);
    auto s = game->initial_state();
    std::vector<Move> moves;
    ai::SearchLimits limits;
    limits.budget = 300;
    while (!s->is_terminal() && moves.size() < 20) {
      moves.push_back(mcts.search(*s, limits).best);
      s->apply(moves.back());
    }
    if (run == 0)
      first = moves;
    else
      EXPECT_EQ(moves, first);
  }
}

TEST(Mcts, ReusesTheSubtreeOfTheReachedPosition) {
  register_builtin_games();
  auto s = make_game("bohnduell")->initial_state();
  ai::Mcts mcts(ai::MctsOptions{});
  ai::SearchLimits limits;
  limits.budget = 2000;
  ai::SearchResult r = mcts.search(*s, limits);
  EXPECT_EQ(mcts.reused_visits(), 0u);
  s->apply(r.best);
  s->apply(r.pv.size() > 1 ? r.pv[1] : s->legal_moves().front());
  mcts.search(*s, limits);
  EXPECT_GT(mcts.reused_visits(), 0u);
}

TEST(Mcts, StopsAtTheMovetimeOfAnInjectedClock) {
  register_builtin_games();
  auto s = make_game("bohnduell")->initial_state();
  std::int64_t now = 0;
  ai::SearchLimits limits;
  limits.budget = 1'000'000;
  limits.movetime_ms = 10;
  limits.clock = [&now] { return now += 1000; };  // every reading is 1 ms later
  ai::Mcts mcts(ai::MctsOptions{});
  ai::SearchResult r = mcts.search(*s, limits);
  // The start reads 1 ms; before iteration k (k >= 1) the clock reads (k + 1) ms, so k ms have
  // passed: the check before iteration 10 stops the search after 10 iterations.
  EXPECT_EQ(r.iterations, 10u);
}

TEST(AlphaBeta, FindsTheWinningTakeAndProvesIt) {
  for (int pile : {5, 13, 14, 23}) {
    auto s = take_away(2, pile)->initial_state();
    ai::AlphaBeta ab(ai::AlphaBetaOptions{});
    ai::SearchLimits limits;
    limits.budget = 1'000'000;
    ai::SearchResult r = ab.search(*s, limits);
    EXPECT_EQ(taken(r), pile % 4) << "pile " << pile;
    EXPECT_TRUE(r.exact);
    EXPECT_DOUBLE_EQ(r.value, 1.0);
  }
}

TEST(AlphaBeta, ProvesALossAndPlaysOn) {
  auto s = take_away(2, 12)->initial_state();
  ai::AlphaBeta ab(ai::AlphaBetaOptions{});
  ai::SearchLimits limits;
  limits.budget = 1'000'000;
  ai::SearchResult r = ab.search(*s, limits);
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.value, 0.0);
  EXPECT_GE(taken(r), 1);
}

TEST(AlphaBeta, ParanoidSeesTheCoalition) {
  // Three seats. Pile 4: every take leaves 1..3 and the next seat takes the rest. Pile 5: taking
  // 1 leaves 4, and the two others together make sure one of them takes the last stone. Pile 3
  // is an immediate win.
  for (int pile : {4, 5}) {
    auto s = take_away(3, pile)->initial_state();
    ai::AlphaBeta ab(ai::AlphaBetaOptions{});
    ai::SearchLimits limits;
    limits.budget = 100'000;
    ai::SearchResult r = ab.search(*s, limits);
    EXPECT_TRUE(r.exact) << pile;
    EXPECT_DOUBLE_EQ(r.value, 0.0) << pile;
  }
  auto s = take_away(3, 3)->initial_state();
  ai::AlphaBeta ab(ai::AlphaBetaOptions{});
  ai::SearchLimits limits;
  EXPECT_EQ(taken(ab.search(*s, limits)), 3);
}

TEST(AlphaBeta, BestReplyTakesTheWinAndSeesTheThreat) {
  ai::AlphaBetaOptions o;
  o.multi_seat = ai::MultiSeatMode::kBestReply;
  ai::SearchLimits limits;
  limits.budget = 100'000;
  {
    auto s = take_away(4, 2)->initial_state();
    ai::AlphaBeta ab(o);
    EXPECT_EQ(taken(ab.search(*s, limits)), 2);
  }
  {
    // Pile 5, four seats: taking 2 or 3 lets the next seat take the rest at once; after taking 1
    // (4 left) one opponent's deviation still wins, but a ply later: the longest defence.
    auto s = take_away(4, 5)->initial_state();
    o.max_depth = 1;
    ai::AlphaBeta shallow(o);
    EXPECT_EQ(taken(shallow.search(*s, limits)), 1);
  }
}

TEST(AlphaBeta, SameBudgetSameMove) {
  register_builtin_games();
  auto s = make_game("bohnduell")->initial_state();
  s->apply_text("S4");
  s->apply_text("S4");
  ai::SearchLimits limits;
  limits.budget = 20'000;
  ai::AlphaBeta a(ai::AlphaBetaOptions{});
  ai::AlphaBeta b(ai::AlphaBetaOptions{});
  ai::SearchResult ra = a.search(*s, limits);
  ai::SearchResult rb = b.search(*s, limits);
  EXPECT_EQ(ra.best, rb.best);
  EXPECT_EQ(ra.pv, rb.pv);
  EXPECT_EQ(ra.iterations, rb.iterations);
}

TEST(AlphaBeta, StopsAtTheMovetimeOfAnInjectedClock) {
  register_builtin_games();
  auto s = make_game("bohnduell")->initial_state();
  std::int64_t now = 0;
  ai::SearchLimits limits;
  limits.movetime_ms = 5;
  limits.clock = [&now] { return now += 1000; };
  ai::AlphaBeta ab(ai::AlphaBetaOptions{});
  ai::SearchResult r = ab.search(*s, limits);
  // The clock is read every 256 nodes: 1 reading at the start, the 5th later one expires.
  EXPECT_EQ(r.iterations, 5u * 256u);
  EXPECT_FALSE(r.best.empty());
}

TEST(Bots, NamesAndErrors) {
  register_builtin_games();  // a game's own players (Biloba's classic) come from the registry
  EXPECT_TRUE(is_bot_name("random"));
  EXPECT_TRUE(is_bot_name("Classic"));
  EXPECT_TRUE(is_bot_name(" Greedy "));
  EXPECT_TRUE(is_bot_name("3"));
  EXPECT_TRUE(is_bot_name("level5"));
  EXPECT_FALSE(is_bot_name("6"));
  EXPECT_FALSE(is_bot_name("human"));
  EXPECT_EQ(make_bot("LEVEL2", 1)->name(), "2");
  try {
    make_bot("deep-blue", 1);
    FAIL();
  } catch (const OptionError& e) {
    EXPECT_STREQ(e.what(),
                 "unknown bot 'deep-blue'; bots are: random, greedy, classic (biloba), 1, 2, 3, "
                 "4, 5 (or level1..level5)");
  }
}

TEST(Bots, ClassicNeedsAGameThatHasIt) {
  register_builtin_games();
  auto s = make_game("bohnduell")->initial_state();
  auto bot = make_bot("classic", 1);
  EXPECT_EQ(bot->name(), "classic");
  try {
    bot->choose_move(*s);
    FAIL();
  } catch (const OptionError& e) {
    EXPECT_STREQ(e.what(), "bohnduell has no 'classic' player");
  }
}

TEST(Bots, RandomKeepsItsSequence) {
  // random draws rng.below(size) over legal_moves() with Rng(seed): the first BohnDuell moves of
  // seed 7 are fixed.
  register_builtin_games();
  auto s = make_game("bohnduell")->initial_state();
  auto bot = make_bot("random", 7);
  Rng rng(7);
  for (int i = 0; i < 10 && !s->is_terminal(); ++i) {
    auto moves = s->legal_moves();
    const Move expected = moves[rng.below(static_cast<std::uint32_t>(moves.size()))];
    const Move m = bot->choose_move(*s);
    EXPECT_EQ(m, expected);
    s->apply(m);
  }
}

TEST(Bots, EveryBotPlaysAWholeGame) {
  register_builtin_games();
  for (const char* name : {"random", "greedy", "1", "2", "3", "4", "5"}) {
    auto s = make_game("bohnduell(supply=6)")->initial_state();
    auto bot = make_bot(name, 3);
    while (!s->is_terminal()) s->apply(bot->choose_move(*s));
    EXPECT_TRUE(s->is_terminal()) << name;
  }
}

TEST(Elo, FromScores) {
  EXPECT_NEAR(ai::elo_from_score(0.75), 190.848501887865, 1e-9);
  EXPECT_TRUE(std::isinf(ai::elo_from_score(1.0)));
  ai::EloEstimate e = ai::estimate_elo({1, 1, 0, 0.5});
  EXPECT_EQ(e.games, 4);
  EXPECT_DOUBLE_EQ(e.score, 0.625);
  EXPECT_NEAR(e.diff, 88.73949984654251, 1e-9);
  EXPECT_NEAR(e.low, -293.4709762812405, 1e-9);
  EXPECT_TRUE(std::isinf(e.high) && e.high > 0);
  EXPECT_EQ(ai::format_elo(e), "+88.7 [-293.5, +inf]");
  e = ai::estimate_elo({1, 1, 1, 1, 1, 1, 0, 0, 0, 0.5});
  EXPECT_NEAR(e.diff, 107.53812491703204, 1e-9);
  EXPECT_NEAR(e.low, -102.97434775477474, 1e-9);
  EXPECT_NEAR(e.high, 490.71358691674726, 1e-9);
}

TEST(Match, RotatesSeatsCountsResultsAndIgnoresThreads) {
  register_builtin_games();
  ai::MatchConfig c;
  c.game = make_game("bohnduell(supply=6)");
  c.bots = {"greedy", "random"};
  c.games = 6;
  c.seed = 5;
  ai::MatchResult one = ai::run_match(c);
  c.threads = 2;
  ai::MatchResult two = ai::run_match(c);
  ASSERT_EQ(one.games.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(one.games[i].record, two.games[i].record);
    EXPECT_EQ(one.games[i].seat_bots[0], i % 2 == 0 ? "greedy" : "random");
    // Every record replays to its outcome.
    ReplayedGame g = load_record(one.games[i].record);
    EXPECT_EQ(g.state->returns(), one.games[i].returns);
  }
  ASSERT_EQ(one.stats.size(), 2u);
  EXPECT_EQ(one.stats[0].name, "greedy");
  EXPECT_EQ(one.stats[0].games, 6);
  EXPECT_EQ(one.stats[0].wins + one.stats[0].draws + one.stats[0].losses, 6);
  EXPECT_EQ(one.stats[0].wins, one.stats[1].losses);
  EXPECT_TRUE(one.has_elo);
  EXPECT_EQ(one.elo.games, 6);
}

TEST(Match, RandomOpeningsAreSharedBySeatRotations) {
  register_builtin_games();
  ai::MatchConfig c;
  c.game = make_game("bohnduell(supply=8)");
  c.bots = {"3", "2"};
  c.games = 4;
  c.opening_plies = 3;
  ai::MatchResult r = ai::run_match(c);
  auto opening = [&](int g) {
    ReplayedGame rg = load_record(r.games[static_cast<std::size_t>(g)].record);
    return std::vector<Move>(rg.moves.begin(), rg.moves.begin() + 3);
  };
  EXPECT_EQ(opening(0), opening(1));
  EXPECT_EQ(opening(2), opening(3));
  EXPECT_NE(opening(0), opening(2));
}

TEST(Match, SummaryOfFourSeatGames) {
  // One bot "x" against three "y": pairwise scores 1 (x won), 0 (x lost to the winner y; the
  // other two y tie with x at 0 so ½ each: (0 + ½ + ½) / 3).
  std::vector<ai::GameOutcome> games(2);
  games[0].seat_bots = {"x", "y", "y", "y"};
  games[0].returns = {1, 0, 0, 0};
  games[1].seat_bots = {"y", "x", "y", "y"};
  games[1].returns = {1, 0, 0, 0};
  ai::MatchResult r = ai::summarize(games);
  ASSERT_EQ(r.stats.size(), 2u);
  EXPECT_EQ(r.stats[0].wins, 1);
  EXPECT_EQ(r.stats[0].losses, 1);
  EXPECT_EQ(r.stats[1].games, 6);
  EXPECT_EQ(r.stats[1].wins, 1);
  EXPECT_EQ(r.stats[1].losses, 5);
  EXPECT_DOUBLE_EQ(r.elo.score, (1.0 + 1.0 / 3.0) / 2.0);
}

TEST(Match, RejectsWrongSeatCountsAndBots) {
  register_builtin_games();
  ai::MatchConfig c;
  c.game = make_game("bohnduell");
  c.bots = {"1"};
  EXPECT_THROW(ai::run_match(c), OptionError);
  c.bots = {"1", "9"};
  EXPECT_THROW(ai::run_match(c), OptionError);
}

}  // namespace
}  // namespace plateau
