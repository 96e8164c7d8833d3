// Biloba's no-progress rule (issue 14; biloba_game.h): after `no_progress` turns in a row
// without a capture or an elimination the game is drawn among the seats still on the board.
// Exact counts: the 300th quiet turn ends a `biloba` game, never one with no_progress=0 or the
// preset `classic`; a capture (after a move or at the start of a turn) and an elimination
// reset the count; the position string is unchanged; records say how the game ended.
#include <gtest/gtest.h>

#include "core/error.h"
#include "core/record.h"
#include "core/registry.h"
#include "games/biloba/biloba_game.h"
#include "games/register.h"

namespace plateau::biloba {
namespace {

// Orange c9 d9 e9, Blue c1 d1 e1: both sides can shuffle e9-f9 / e1-f1 for ever, nothing
// adjacent to an enemy pawn.
constexpr const char* kQuiet =
    "##OOO..##/#.......#/........./........./....*..../........./........./#.......#/"
    "##BBB..## O 2";

class BilobaNoProgress : public ::testing::Test {
 protected:
  void SetUp() override { register_builtin_games(); }
  static const BilobaState& bs(const State& s) { return static_cast<const BilobaState&>(s); }
  // Plays quiet turn number i (0-based) of the shuffle from kQuiet.
  static void shuffle(State& s, int i) {
    static const char* kTurns[] = {"e9-f9", "e1-f1", "f9-e9", "f1-e1"};
    s.apply_text(kTurns[i % 4]);
  }
};

TEST_F(BilobaNoProgress, The300thQuietTurnDrawsByDefault) {
  auto game = make_game("biloba");
  EXPECT_EQ(game->options().get_int("no_progress"), 300);
  auto s = game->parse_state(kQuiet);
  for (int i = 0; i < 299; ++i) shuffle(*s, i);
  EXPECT_FALSE(s->is_terminal());
  EXPECT_EQ(bs(*s).quiet_turns(), 299);
  EXPECT_EQ(s->result_text(), "");
  EXPECT_EQ(s->termination(), "");
  EXPECT_TRUE(s->seat_in_play(0));
  shuffle(*s, 299);
  ASSERT_TRUE(s->is_terminal());
  EXPECT_EQ(bs(*s).quiet_turns(), 300);
  EXPECT_EQ(bs(*s).outcome(), Outcome::kDraw);
  EXPECT_EQ(s->result_text(), "Result: Draw (300 turns without a capture).");
  EXPECT_EQ(s->termination(), "no progress");
  EXPECT_EQ(s->returns(), (std::vector<double>{0.5, 0.5}));
  EXPECT_EQ(result_string(*s), "1/2-1/2");
  EXPECT_TRUE(s->legal_moves().empty());
  EXPECT_FALSE(s->seat_in_play(0));
  const std::string text = s->to_text();
  EXPECT_EQ(text.substr(text.rfind('\n', text.size() - 2) + 1),
            "Result: Draw (300 turns without a capture).\n");
}

TEST_F(BilobaNoProgress, OffAndTheClassicPresetNeverEnd) {
  for (const char* spec : {"biloba(no_progress=0)", "biloba(classic)"}) {
    SCOPED_TRACE(spec);
    auto game = make_game(spec);
    EXPECT_EQ(game->options().get_int("no_progress"), 0);
    auto s = game->parse_state(kQuiet);
    for (int i = 0; i < 2000; ++i) shuffle(*s, i);
    EXPECT_FALSE(s->is_terminal());
    EXPECT_EQ(bs(*s).quiet_turns(), 2000);
  }
  EXPECT_EQ(make_game("biloba(classic)")->spec(), "biloba(no_progress=0)");
  EXPECT_EQ(make_game("biloba(no_progress=12)")->spec(), "biloba(no_progress=12)");
  EXPECT_THROW(make_game("biloba(no_progress=-1)"), OptionError);
  EXPECT_THROW(make_game("biloba(no_progress=1000001)"), OptionError);
}

TEST_F(BilobaNoProgress, ACaptureAfterAMoveResetsTheCount) {
  // Orange b6 and d7 around Blue c6: d7-d6 sandwiches c6 (refill by b6 or d6).
  auto s = make_game("biloba(no_progress=3)")
               ->parse_state(
                   "##OOO..##/#.......#/...O...../.OB....../....*..../........./........./"
                   "#.......#/##BBB..## O 2");
  s->apply_text("e9-f9");
  s->apply_text("e1-f1");
  EXPECT_EQ(bs(*s).quiet_turns(), 2);
  s->apply_text("d7-d6/d6-c6");
  EXPECT_EQ(bs(*s).quiet_turns(), 0);
  s->apply_text("f1-e1");
  s->apply_text("f9-e9");
  EXPECT_FALSE(s->is_terminal());
  s->apply_text("e1-f1");
  EXPECT_TRUE(s->is_terminal());
  EXPECT_EQ(s->result_text(), "Result: Draw (3 turns without a capture).");
}

TEST_F(BilobaNoProgress, CapturesAtTheStartOfATurnResetTheCount) {
  // Blue d2-d3 steps between Orange c3 and e3; Orange's next turn starts with `x`.
  auto s = make_game("biloba(no_progress=3)")
               ->parse_state(
                   "##OOO..##/#.......#/........./........./....*..../........./..O.O..../"
                   "#..B....#/##BBB..## O 2");
  s->apply_text("e9-f9");
  s->apply_text("d2-d3");
  EXPECT_EQ(bs(*s).quiet_turns(), 2);
  const auto moves = s->legal_moves();
  ASSERT_FALSE(moves.empty());
  ASSERT_EQ(s->move_to_string(moves[0]).substr(0, 1), "x");
  s->apply(moves[0]);
  EXPECT_EQ(bs(*s).quiet_turns(), 0);
  EXPECT_FALSE(s->is_terminal());
}

TEST_F(BilobaNoProgress, AnEliminationResetsTheCountAndTheDrawIsAmongTheSurvivors) {
  // 3 players; Red's lone pawn on a5 cannot eat soon: its turn is `out`.
  auto s = make_game("biloba(players=3,no_progress=3)")
               ->parse_state(
                   "##OOO..##/#.......#/........./........./R...*..../........./........./"
                   "#.......#/##BBB..## O 3");
  s->apply_text("e9-f9");
  s->apply_text("e1-f1");
  EXPECT_EQ(bs(*s).quiet_turns(), 2);
  EXPECT_TRUE(s->seat_in_play(2));
  s->apply_text("out");
  EXPECT_EQ(bs(*s).quiet_turns(), 0);
  EXPECT_FALSE(s->seat_in_play(2));  // no pawns: Red never moves again
  EXPECT_TRUE(s->seat_in_play(0));
  s->apply_text("f9-e9");
  s->apply_text("f1-e1");
  EXPECT_FALSE(s->is_terminal());
  s->apply_text("e9-f9");
  ASSERT_TRUE(s->is_terminal());
  EXPECT_EQ(s->returns(), (std::vector<double>{0.5, 0.5, 0.0}));
  EXPECT_EQ(result_string(*s), "1/2-1/2-0");
}

TEST_F(BilobaNoProgress, ThePositionStringHashAndEqualityIgnoreTheCount) {
  auto game = make_game("biloba(no_progress=10)");
  auto s = game->parse_state(kQuiet);
  const std::string start = s->serialize();
  const std::uint64_t hash = s->hash();
  for (int i = 0; i < 4; ++i) shuffle(*s, i);
  EXPECT_EQ(bs(*s).quiet_turns(), 4);
  EXPECT_EQ(s->serialize(), start);  // the §7.5 string is unchanged
  EXPECT_EQ(s->hash(), hash);        // a repeated position hashes alike
  auto parsed = game->parse_state(s->serialize());
  EXPECT_EQ(bs(*parsed).quiet_turns(), 0);  // a parsed position starts counting at 0
  EXPECT_TRUE(parsed->equals(*s));
  auto copy = s->clone();
  EXPECT_EQ(bs(*copy).quiet_turns(), 4);  // clone() keeps it (the AI sees the same end)
}

TEST_F(BilobaNoProgress, TheRecordSaysHowAndReplaysToTheSameEnd) {
  auto game = make_game("biloba(no_progress=8)");
  auto initial = game->parse_state(kQuiet);
  auto s = initial->clone();
  std::vector<Move> moves;
  for (int i = 0; i < 8; ++i) {
    static const char* kTurns[] = {"e9-f9", "e1-f1", "f9-e9", "f1-e1"};
    moves.push_back(s->parse_move(kTurns[i % 4]));
    s->apply(moves.back());
  }
  ASSERT_TRUE(s->is_terminal());
  const std::string text = write_record(*initial, moves);
  EXPECT_EQ(text,
            "[Game \"biloba\"]\n"
            "[Options \"no_progress=8\"]\n"
            "[Position \"" + std::string(kQuiet) + "\"]\n"
            "[Result \"1/2-1/2\"]\n"
            "[Termination \"no progress\"]\n"
            "O:e9-f9 B:e1-f1 O:f9-e9 B:f1-e1 O:e9-f9 B:e1-f1 O:f9-e9 B:f1-e1\n");
  const ReplayedGame replayed = load_record(text);
  EXPECT_TRUE(replayed.state->is_terminal());
  EXPECT_EQ(replayed.state->termination(), "no progress");
  EXPECT_EQ(result_string(*replayed.state), "1/2-1/2");
  // A header that says how (the server's) is not doubled.
  RecordHeader header;
  header.extra_tags = {{"Termination", "no progress"}};
  const std::string server = write_record(*initial, moves, header);
  EXPECT_EQ(server.find("Termination"), server.rfind("Termination"));
  // One more quiet turn in the record is refused: the game was over.
  EXPECT_THROW(load_record(text + "O:e9-f9\n"), RecordError);
}

TEST_F(BilobaNoProgress, TheTurnCapSaysWhy) {
  auto s = make_game("biloba(players=3,turn_cap=2)")->initial_state();
  s->apply_text("e7-e6");
  s->apply_text("h6-g6");
  ASSERT_TRUE(s->is_terminal());
  EXPECT_EQ(s->result_text(), "Result: Draw (turn cap of 2 turns).");
  EXPECT_EQ(s->termination(), "turn cap");
}

TEST_F(BilobaNoProgress, TheRulesOwnDrawKeepsTheSection8Line) {
  // 2 against 2 in 2 players (§6.1): the rules' draw, no termination.
  auto s = make_game("biloba")->parse_state(
      "##OO...##/#.......#/........./........./....*..../........./........./#.......#/"
      "##BB...## O 2");
  ASSERT_TRUE(s->is_terminal());
  EXPECT_EQ(s->result_text(), "Result: Draw.");
  EXPECT_EQ(s->termination(), "");
}

}  // namespace
}  // namespace plateau::biloba
