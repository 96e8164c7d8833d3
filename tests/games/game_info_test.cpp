// What each game says about itself (issue 13 item 9, core/game.h): seat labels per seat count,
// the seat-count and seat-order options, the option schema with types, ranges and choices,
// presets, built-in players and the bot ladder, with exact values. The ladders must stay those
// of the levels tuned in docs/AI.md (bot strength does not change when they move).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/registry.h"
#include "games/register.h"

namespace plateau {
namespace {

class GameInfoTest : public ::testing::Test {
 protected:
  void SetUp() override { register_builtin_games(); }

  static const GameInfo& info(const std::string& name) { return make_game(name)->info(); }
  static const OptionSpec& option(const GameInfo& g, const std::string& name) {
    for (const auto& o : g.options) {
      if (o.name == name) return o;
    }
    throw std::logic_error("no option " + name);
  }
  static std::vector<std::string> labels(const Game& g) {
    std::vector<std::string> out;
    for (int s = 0; s < g.num_seats(); ++s) out.push_back(g.seat_label(s) + "/" + g.seat_name(s));
    return out;
  }
  // A rung as one line: search, budget, then the non-default settings.
  static std::string rung(const BotLevel& l) {
    std::string s = l.search == BotLevel::Search::kMcts        ? "mcts"
                    : l.search == BotLevel::Search::kAlphaBeta ? "ab"
                                                               : "brs";
    s += " " + std::to_string(l.budget);
    if (l.max_moves) s += " moves=" + std::to_string(l.max_moves);
    if (l.use_exact) s += " exact";
    if (l.playout_depth) s += " depth=" + std::to_string(l.playout_depth);
    return s;
  }
  static std::vector<std::string> ladder(const std::string& spec) {
    std::vector<std::string> out;
    for (const auto& l : make_game(spec)->bot_ladder()) out.push_back(rung(l));
    return out;
  }
};

TEST_F(GameInfoTest, SeatLabelsPerSeatCount) {
  const GameInfo& biloba = info("biloba");
  EXPECT_EQ(biloba.seat_count_option, "players");
  EXPECT_EQ(labels(*make_game_with_seats(biloba, 2)),
            (std::vector<std::string>{"O/Orange", "B/Blue"}));
  EXPECT_EQ(labels(*make_game_with_seats(biloba, 3)),
            (std::vector<std::string>{"O/Orange", "B/Blue", "R/Red"}));
  EXPECT_EQ(labels(*make_game_with_seats(biloba, 4)),
            (std::vector<std::string>{"O/Orange", "B/Blue", "R/Red", "G/Green"}));
  EXPECT_EQ(make_game_with_seats(biloba, 3)->spec(), "biloba(players=3)");
  EXPECT_EQ(labels(*make_game_with_seats(info("bohnduell"), 2)),
            (std::vector<std::string>{"A/A", "B/B"}));
  EXPECT_EQ(labels(*make_game_with_seats(info("phutball"), 2)),
            (std::vector<std::string>{"O/Ohs", "X/Eks"}));
  EXPECT_EQ(info("bohnduell").seat_count_option, "");
  EXPECT_EQ(info("phutball").seat_count_option, "");
  try {
    make_game_with_seats(biloba, 5);
    FAIL();
  } catch (const OptionError& e) {
    EXPECT_STREQ(e.what(), "biloba has 2 to 4 seats, not 5");
  }
  EXPECT_THROW(make_game_with_seats(info("phutball"), 3), OptionError);
}

TEST_F(GameInfoTest, SeatOrderOption) {
  EXPECT_EQ(info("bohnduell").seat_order_option, "start");
  EXPECT_EQ(info("biloba").seat_order_option, "");
  EXPECT_EQ(info("phutball").seat_order_option, "");
  // start=1: table seat 1 moves first; start=2: table seat 2; random: the draw modulo 2.
  EXPECT_EQ(make_game("bohnduell(start=1)")->first_seat(7), 0);
  EXPECT_EQ(make_game("bohnduell(start=2)")->first_seat(8), 1);
  EXPECT_EQ(make_game("bohnduell")->first_seat(8), 0);
  EXPECT_EQ(make_game("bohnduell")->first_seat(7), 1);
  // Without a seat-order option the table order stands, whatever the draw.
  EXPECT_EQ(make_game("biloba(players=4)")->first_seat(3), 0);
  EXPECT_EQ(make_game("phutball")->first_seat(1), 0);
}

TEST_F(GameInfoTest, OptionTypesRangesAndChoices) {
  const GameInfo& b = info("biloba");
  const OptionSpec& players = option(b, "players");
  EXPECT_EQ(players.type, OptionType::kInt);
  EXPECT_EQ(players.min, 2);
  EXPECT_EQ(players.max, 4);
  EXPECT_EQ(players.default_value, "2");
  EXPECT_EQ(option(b, "no_legal_move").type, OptionType::kEnum);
  EXPECT_EQ(option(b, "no_legal_move").choices, (std::vector<std::string>{"pass", "wait"}));
  EXPECT_EQ(option(b, "turn_cap").max, 1000000);

  const GameInfo& p = info("phutball");
  const OptionSpec& handicap = option(p, "handicap");
  EXPECT_EQ(handicap.type, OptionType::kDecimal);
  EXPECT_EQ(handicap.min, -8.5);
  EXPECT_EQ(handicap.max, 8.5);
  EXPECT_EQ(handicap.step, 0.5);
  EXPECT_EQ(handicap.default_value, "0");
  EXPECT_EQ(option(p, "corner_exit").type, OptionType::kBool);
  EXPECT_EQ(option(p, "corner_exit").choices, (std::vector<std::string>{"off", "on"}));
  EXPECT_EQ(option(p, "corner_exit").default_value, "off");
  EXPECT_EQ(option(p, "lenient_path").type, OptionType::kBool);
  EXPECT_EQ(option(p, "repetition").choices,
            (std::vector<std::string>{"none", "draw_on_threefold", "superko"}));
  EXPECT_EQ(option(p, "ply_cap").type, OptionType::kInt);

  const GameInfo& d = info("bohnduell");
  std::vector<std::string> types;
  for (const auto& o : d.options) types.push_back(o.name + ":" + option_type_name(o.type));
  EXPECT_EQ(types, (std::vector<std::string>{"supply:int", "short_supply:enum", "steal_scope:enum",
                                             "steal_on_harvest:bool", "sower_to_store:bool",
                                             "opposite:enum", "leftovers:enum", "extra_turn:bool",
                                             "start:enum"}));
  EXPECT_EQ(option(d, "start").choices, (std::vector<std::string>{"random", "1", "2"}));
  EXPECT_EQ(option(d, "start").default_value, "random");
  EXPECT_EQ(option(d, "extra_turn").choices, (std::vector<std::string>{"no", "yes"}));
  // A switch still takes its words and rejects anything else, as a choice did.
  EXPECT_EQ(make_game("bohnduell(extra_turn=YES)")->spec(), "bohnduell(extra_turn=yes)");
  EXPECT_THROW(make_game("bohnduell(extra_turn=true)"), OptionError);
}

TEST_F(GameInfoTest, PresetsAndBuiltinPlayers) {
  const GameInfo& p = info("phutball");
  ASSERT_EQ(p.presets.size(), 2u);
  EXPECT_EQ(p.presets[1].name, "winningways");
  EXPECT_EQ(
      p.presets[1].values,
      (std::map<std::string, std::string>{
          {"own_goal", "illegal"}, {"corner_exit", "on"}, {"repetition", "draw_on_threefold"}}));
  EXPECT_EQ(info("biloba").builtin_players, (std::vector<std::string>{"classic"}));
  EXPECT_TRUE(info("bohnduell").builtin_players.empty());
  EXPECT_TRUE(info("phutball").builtin_players.empty());
}

TEST_F(GameInfoTest, BotLaddersKeepTheirValues) {
  EXPECT_EQ(ladder("bohnduell"), (std::vector<std::string>{"ab 30", "ab 300", "ab 3000", "ab 30000",
                                                           "ab 300000 exact"}));
  EXPECT_EQ(ladder("bohnduell(supply=12,extra_turn=yes)"), ladder("bohnduell"));
  EXPECT_EQ(ladder("phutball"),
            (std::vector<std::string>{"ab 50 moves=24", "ab 400 moves=24", "ab 2000 moves=24",
                                      "ab 8000 moves=24", "ab 25000 moves=24"}));
  EXPECT_EQ(ladder("biloba"),
            (std::vector<std::string>{"ab 100", "ab 800", "ab 4000", "ab 12000", "ab 80000"}));
  const std::vector<std::string> more{"brs 100", "brs 600", "brs 3000", "brs 10000", "brs 30000"};
  EXPECT_EQ(ladder("biloba(players=3)"), more);
  EXPECT_EQ(ladder("biloba(players=4)"), more);
}

}  // namespace
}  // namespace plateau
