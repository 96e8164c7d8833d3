// Biloba's classic bot (specs/biloba.md §14) and AI hooks: the threat test, attack-now plans,
// whole games against random, and levels that search.
#include <gtest/gtest.h>

#include "ai/bot.h"
#include "ai/match.h"
#include "core/registry.h"
#include "games/biloba/biloba_classic.h"
#include "games/biloba/biloba_game.h"
#include "games/biloba/biloba_notation.h"
#include "games/register.h"

namespace plateau::biloba {
namespace {

std::unique_ptr<State> state(const std::string& text, const std::string& spec = "biloba") {
  register_builtin_games();
  return make_game(spec)->parse_state(text);
}

const Position& pos_of(const State& s) { return dynamic_cast<const BilobaState&>(s).position(); }

int sq(const char* name) { return *parse_square(name); }

TEST(BilobaClassic, ThreatTestFollowsCanEatSoon) {
  // Orange d4 next to blue c4; the square beyond, e4, is empty.
  // (a) a blue pawn next to e4 (f3): threatened.
  auto a = state(
      "##.....##/#.......#/O......../........./....*..../..BO...../.....B..B/#.......#/##.....## O "
      "2");
  EXPECT_TRUE(is_threatened(pos_of(*a), sq("d4")));
  // (b) no blue pawn next to e4, but e4 is next to the open centre and blue f6 is next to the
  // centre: clause (b) of canEatSoon.
  auto b = state(
      "##.....##/#.......#/O......../.....B.../....*..../..BO...../........B/#.......#/##.....## O "
      "2");
  EXPECT_TRUE(is_threatened(pos_of(*b), sq("d4")));
  // (c) neither: not threatened.
  auto c = state(
      "##.....##/#.......#/O......../........./....*..../..BO...../........B/#.......#/##.....## O "
      "2");
  EXPECT_FALSE(is_threatened(pos_of(*c), sq("d4")));
  EXPECT_EQ(threatened_count(pos_of(*a), 0), 1);
  EXPECT_EQ(threatened_count(pos_of(*c), 0), 0);
}

TEST(BilobaClassic, CandidateListKeepsJumpedPawns) {
  // Orange b5 with blue c5 east of it and d5 empty: the list holds c5 then d5 (§3.1).
  auto s = state(
      "##.....##/#.......#/........./....O..O./.OB.*..../........./........./#.B...B.#/##.....## O "
      "2");
  const std::vector<int> list = candidate_list(pos_of(*s), sq("b5"));
  std::vector<std::string> names;
  for (int x : list) names.push_back(square_name(x));
  EXPECT_EQ(names,
            (std::vector<std::string>{"a6", "a5", "a4", "b6", "b4", "c6", "c5", "d5", "c4"}));
}

TEST(BilobaClassic, AttacksNow) {
  // e6-d5 sandwiches blue c5 against b5: the only capture, which classic always plays.
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    auto s = state(
        "##.....##/#.......#/........./....O..O./.OB.*..../........./........./#.B...B.#/##.....## "
        "O 2");
    Rng rng(seed);
    auto m = s->builtin_player_move("classic", rng);
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(s->move_to_string(*m).substr(0, 6), "e6-d5/") << seed;
    // The turn is legal.
    EXPECT_NO_THROW(s->parse_move(s->move_to_string(*m)));
  }
}

TEST(BilobaClassic, BeatsRandomAndPlaysWholeGames) {
  register_builtin_games();
  for (const char* spec : {"biloba", "biloba(players=4)"}) {
    ai::MatchConfig c;
    c.game = make_game(spec);
    c.bots = c.game->num_seats() == 2
                 ? std::vector<std::string>{"classic", "random"}
                 : std::vector<std::string>{"classic", "random", "random", "random"};
    c.games = 4;
    c.max_plies = 3000;
    ai::MatchResult r = ai::run_match(c);
    EXPECT_EQ(r.stats[0].wins, 4) << spec;
  }
}

TEST(BilobaLevels, SearchFindsTheCaptureAndBeatsClassic) {
  auto s = state(
      "##.....##/#.......#/........./....O..O./.OB.*..../........./........./#.B...B.#/##.....## O "
      "2");
  for (const char* bot : {"greedy", "1", "3"}) {
    EXPECT_EQ(s->move_to_string(make_bot(bot, 1)->choose_move(*s)).substr(0, 6), "e6-d5/") << bot;
  }
  register_builtin_games();
  ai::MatchConfig c;
  c.game = make_game("biloba");
  c.bots = {"2", "classic"};
  c.games = 2;
  c.max_plies = 1000;
  EXPECT_EQ(ai::run_match(c).stats[0].wins, 2);
}

TEST(BilobaEval, SharesAndTerminalReturns) {
  register_builtin_games();
  auto two = make_game("biloba")->initial_state();
  std::vector<double> e = two->evaluate();
  EXPECT_NEAR(e[0] + e[1], 1.0, 1e-12);
  auto four = make_game("biloba(players=4)")->initial_state();
  e = four->evaluate();
  ASSERT_EQ(e.size(), 4u);
  EXPECT_NEAR(e[0] + e[1] + e[2] + e[3], 1.0, 1e-12);
  EXPECT_GT(e[0], e[1]);  // the seat to move
}

}  // namespace
}  // namespace plateau::biloba
