// Biloba rules (specs/biloba.md, ruleset `classic`) at move level: every test vector of §16 with
// exact boards, the layouts of §2.2, pawn identity (§2.4), notation (§7), the print-out (§8),
// options (§9), results and returns, step input, and pinned perft counts.
// The click-level side of the vectors is in biloba_clicks_test.cpp; the original's recorded
// games in biloba_golden_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "core/error.h"
#include "core/perft.h"
#include "core/record.h"
#include "core/registry.h"
#include "core/text.h"
#include "games/biloba/biloba_game.h"
#include "games/biloba/biloba_notation.h"
#include "games/register.h"

namespace plateau::biloba {
namespace {

class BilobaTest : public ::testing::Test {
 protected:
  void SetUp() override { register_builtin_games(); }

  static std::unique_ptr<State> at(const std::string& position, const std::string& spec = "") {
    std::string s = spec;
    if (s.empty()) {
      const char players = position.back();
      s = players == '2' ? "biloba" : std::string("biloba(players=") + players + ")";
    }
    return make_game(s)->parse_state(position);
  }
  static const BilobaState& bs(const State& s) { return static_cast<const BilobaState&>(s); }
  // Applies the record entries "O:f3-e4/c4-d4 B:..." checking each seat prefix.
  static void play(State& s, const std::string& entries) {
    for (std::string_view e : split_ws(entries)) {
      ASSERT_EQ(std::string(1, e[0]), s.game()->seat_label(s.current_seat())) << e;
      s.apply_text(e.substr(2));
    }
  }
  static std::vector<std::string> legal(const State& s) {
    std::vector<std::string> out;
    for (const Move& m : s.legal_moves()) out.push_back(s.move_to_string(m));
    std::sort(out.begin(), out.end());
    return out;
  }
  // Destinations of the pawn on `square` in candidate order (§3.1), a centre entry written
  // "e5→{exits}" as in TV-01.
  static std::string dests(const Position& pos, const std::string& square) {
    const int from = *parse_square(square);
    std::map<int, std::vector<std::string>> walks;
    for (const auto& body : move_bodies(pos, pos.cell[from])) {
      if (body[0] == from && body.size() == 3) walks[from].push_back(square_name(body[2]));
    }
    std::array<std::uint8_t, 8> d;
    const int n = destinations(pos, from, d);
    std::vector<std::string> out;
    for (int i = 0; i < n; ++i) {
      if (d[i] == kCentre) {
        out.push_back("e5→{" + join(walks[from], ",") + "}");
      } else {
        out.push_back(square_name(d[i]));
      }
    }
    return join(out, " ");
  }
};

constexpr const char* kStart2 =
    "##..O..##/#..OOO..#/..OOOOO../.OOOOOOO./....*..../.BBBBBBB./..BBBBB../#..BBB..#/##..B..## "
    "O 2";

// ---------------------------------------------------------------------------------------------
// §2 Setup

TEST_F(BilobaTest, StartLayoutsAndPositionStrings) {
  EXPECT_EQ(make_game("biloba")->initial_state()->serialize(), kStart2);
  EXPECT_EQ(make_game("biloba(players=3)")->initial_state()->serialize(),
            "##OO.OO##/#..OOO..#/....O...B/.......BB/....*.BB./.......BB/....R...B/#..RRR..#/"
            "##RR.RR## O 3");
  EXPECT_EQ(make_game("biloba(players=4)")->initial_state()->serialize(),
            "##OO.OO##/#..OOO..#/G...O...B/GG.....BB/.GG.*.BB./GG.....BB/G...R...B/#..RRR..#/"
            "##RR.RR## O 4");
  auto s4 = make_game("biloba(players=4)")->initial_state();
  EXPECT_EQ(bs(*s4).position().count, (std::array<std::uint8_t, 4>{8, 8, 8, 8}));
  auto s2 = make_game("biloba")->initial_state();
  EXPECT_EQ(bs(*s2).position().count, (std::array<std::uint8_t, 4>{16, 16, 0, 0}));
  EXPECT_EQ(s2->current_seat(), 0);  // orange always starts
}

TEST_F(BilobaTest, PawnIdentityInScanOrder) {
  // §2.4: #0 = b6, #1 = c7, #2 = c6, #3 = d8, ..., #15 = h6.
  const Position pos = start_position(2);
  std::vector<std::string> names;
  for (int sq : pawns_in_order(pos, 0)) names.push_back(square_name(sq));
  EXPECT_EQ(join(names, " "), "b6 c7 c6 d8 d7 d6 e9 e8 e7 e6 f8 f7 f6 g7 g6 h6");
  // Pawns keep their number as they move.
  Turn turn(pos, true);
  turn.choose(*parse_square("b6"));
  turn.choose(*parse_square("b5"));
  EXPECT_EQ(pawns_in_order(turn.position(), 0).front(), *parse_square("b5"));
}

TEST_F(BilobaTest, Geometry) {
  EXPECT_EQ(square_name(kCentre), "e5");
  EXPECT_EQ(*parse_square("E5"), kCentre);
  EXPECT_EQ(*parse_square("a9"), 0);
  EXPECT_EQ(*parse_square("i1"), 80);
  EXPECT_FALSE(parse_square("j1"));
  EXPECT_FALSE(parse_square("a0"));
  int playable = 0;
  for (int sq = 0; sq < kSquares; ++sq) playable += is_playable(sq) ? 1 : 0;
  EXPECT_EQ(playable, 69);
  for (const char* sq : {"a9", "i9", "a1", "i1"}) {
    EXPECT_EQ(cell_type(*parse_square(sq)), CellType::kNoTile) << sq;
  }
  for (const char* sq : {"b9", "a8", "h9", "i8", "a2", "b1", "i2", "h1"}) {
    EXPECT_EQ(cell_type(*parse_square(sq)), CellType::kDecorative) << sq;
  }
}

// ---------------------------------------------------------------------------------------------
// §16 test vectors, move level

TEST_F(BilobaTest, TV01_StartPositionEveryLegalMove) {
  const std::map<std::string, std::string> orange = {{"b6", "a7 a6 a5 b7 b5 c5"},
                                                     {"c7", "b8 b7 a5 c8 c5"},
                                                     {"c6", "b7 a6 b5 c5 d5"},
                                                     {"d8", "c9 c8 d9"},
                                                     {"d7", "c8 b7 b5 d5 f5"},
                                                     {"d6", "c5 d5 e5→{d5,f5}"},
                                                     {"e9", "d9 f9"},
                                                     {"e8", "d9 c8 f9 g8"},
                                                     {"e7", "c5 g5"},
                                                     {"e6", "d5 e5→{d5,f5} f5"},
                                                     {"f8", "f9 g9 g8"},
                                                     {"f7", "d5 f5 g8 h7 h5"},
                                                     {"f6", "e5→{d5,f5} f5 g5"},
                                                     {"g7", "g8 g5 h8 h7 i5"},
                                                     {"g6", "f5 g5 h7 i6 h5"},
                                                     {"h6", "g5 h7 h5 i7 i6 i5"}};
  const std::map<std::string, std::string> blue = {
      {"b4", "a5 a4 a3 b5 b3 c5"}, {"c4", "b5 a4 b3 c5 d5"},
      {"c3", "a5 b3 b2 c5 c2"},    {"d4", "c5 d5 e5→{d5,f5}"},
      {"d3", "b5 b3 c2 d5 f5"},    {"d2", "c2 c1 d1"},
      {"e4", "d5 e5→{d5,f5} f5"},  {"e3", "c5 g5"},
      {"e2", "c2 d1 g2 f1"},       {"e1", "d1 f1"},
      {"f4", "e5→{d5,f5} f5 g5"},  {"f3", "d5 f5 h5 h3 g2"},
      {"f2", "f1 g2 g1"},          {"g4", "f5 g5 h5 i4 h3"},
      {"g3", "g5 g2 i5 h3 h2"},    {"h4", "g5 h5 h3 i5 i4 i3"}};
  const Position pos = start_position(2);
  for (const auto& [sq, list] : orange) EXPECT_EQ(dests(pos, sq), list) << sq;
  for (const auto& [sq, list] : blue) EXPECT_EQ(dests(pos, sq), list) << sq;
  // 68 legal moves each, a walk counting once per exit.
  auto s = at(kStart2);
  EXPECT_EQ(s->legal_moves().size(), 68u);
  auto b =
      at("##..O..##/#..OOO..#/..OOOOO../.OOOOOOO./....*..../.BBBBBBB./..BBBBB../#..BBB..#/"
         "##..B..## B 2");
  EXPECT_EQ(b->legal_moves().size(), 68u);
  // The backward step d8-c9, the sideways jumps e8-c8 and e8-g8; e7 cannot jump to the centre;
  // b8 is playable, a8 and b9 are not.
  for (const char* m : {"d8-c9", "e8-c8", "e8-g8", "c7-b8"}) EXPECT_NO_THROW(s->parse_move(m)) << m;
  EXPECT_THROW(s->parse_move("e7-e5"), RuleError);
  EXPECT_THROW(s->parse_move("b6-a8"), RuleError);
}

TEST_F(BilobaTest, TV02_JumpGeometry) {
  const Position pos = parse_position(
      "##.....##/#BOB....#/.OOB...../.BOB...../....*..../.....OBO./.....BBO./#....OBO#/##.....## "
      "O 2",
      2, false);
  EXPECT_EQ(dests(pos, "c7"), "a7 a5 c5 e7");
  EXPECT_EQ(dests(pos, "g3"), "e3 g5 i5 i3");
  EXPECT_EQ(dests(pos, "b8"), "a7 c9");
  EXPECT_EQ(dests(pos, "c8"), "a6 c9 d9 e8 e6");
}

TEST_F(BilobaTest, TV03_JumpDirectionPerColour4Players) {
  const std::string rows =
      "##.....##/#.......#/........./........./.YYY*..../.YXY...../.YYY...../#.......#/##.....##";
  const std::vector<std::tuple<char, char, std::string>> cases = {{'O', 'B', "a4 c2 e4 e2"},
                                                                  {'B', 'R', "a6 a4 c6 c2"},
                                                                  {'R', 'G', "a6 a4 c6 e6 e4"},
                                                                  {'G', 'O', "c6 c2 e6 e4 e2"}};
  for (const auto& [x, y, expected] : cases) {
    std::string text = rows;
    std::replace(text.begin(), text.end(), 'X', x);
    std::replace(text.begin(), text.end(), 'Y', y);
    const Position pos = parse_position(text + " " + x + " 4", 4, false);
    // No steps; a2 (decorative) is never legal.
    EXPECT_EQ(dests(pos, "c4"), expected) << x;
    // X has one pawn next to no centre-adjacent gap and no capture: it is eliminated at once
    // (the recorded original says the same), and the ringing colour wins.
    auto s = at(text + " " + x + " 4");
    EXPECT_EQ(legal(*s), std::vector<std::string>{"out"}) << x;
    s->apply_text("out");
    EXPECT_EQ(s->result_text(), "Result: " + colour_name(colour_of_label(y)) + " wins.");
  }
}

TEST_F(BilobaTest, TV04_ClosedCentre) {
  const Position pos = parse_position(
      "##.....##/#.......#/........./...OOO.../...O*B.../...BBB.../........./#.......#/##.....## "
      "O 2",
      2, false);
  EXPECT_FALSE(centre_open(pos));
  EXPECT_EQ(dests(pos, "d6"), "c7 c6 c5 d7 e7");
  EXPECT_EQ(dests(pos, "d5"), "c6 c5 c4 d3 f3");
  EXPECT_EQ(dests(pos, "e6"), "d7 c6 c4 e7 f7 g6 g4");
  EXPECT_EQ(dests(pos, "f6"), "e7 f7 g7 g6 g5");
  auto s = at(format_position(pos));
  EXPECT_THROW(s->parse_move("d6-e5-f4"), RuleError);
}

TEST_F(BilobaTest, TV05_CentreWithOneFreeNeighbour) {
  const Position pos = parse_position(
      "##.....##/#.......#/........./...OOO.../...O*B.../...BB..../........./#.......#/##.....## "
      "O 2",
      2, false);
  EXPECT_EQ(dests(pos, "d6"), "c7 c6 c5 d7 e7 e5→{f4}");
  EXPECT_EQ(dests(pos, "d5"), "c6 c5 c4 d3 e5→{f4} f3");
  EXPECT_EQ(dests(pos, "e6"), "d7 c6 c4 e7 e5→{f4} f7 g6 g4");
  EXPECT_EQ(dests(pos, "f6"), "e7 e5→{f4} f7 f4 g7 g6 g5");
  auto s = at(format_position(pos));
  // The exit never offers a jump: g5 beyond blue f5 is empty but not an exit.
  EXPECT_EQ(s->next_steps({"d6", "e5"}).next, std::vector<std::string>{"f4"});
  EXPECT_THROW(s->parse_move("d6-e5-g5"), RuleError);
  // A jump and a walk to the same square are different tokens, both legal.
  EXPECT_NO_THROW(s->parse_move("f6-f4"));
  EXPECT_NO_THROW(s->parse_move("f6-e5-f4"));
}

TEST_F(BilobaTest, TV06_CentreWalk) {
  auto s =
      at("##OO...##/#.......#/........./...O...../....*..../.....B.../......B../#.....B.#/"
         "##.....## O 2");
  play(*s, "O:d6-e5-e6");
  EXPECT_EQ(s->serialize(),
            "##OO...##/#.......#/........./....O..../....*..../.....B.../......B../#.....B.#/"
            "##.....## B 2");
  EXPECT_EQ(s->current_seat(), 1);
}

TEST_F(BilobaTest, TV07_CaptureAndRefill) {
  auto s =
      at("##.....##/#.......#/........./........./....*..../..OB...../.....O.../#.....BB#/"
         "##....B## O 2");
  EXPECT_EQ(s->next_steps({"f3", "e4"}).next, (std::vector<std::string>{"c4", "e4"}));
  EXPECT_EQ(s->next_steps({"f3", "e4", "c4"}).next, std::vector<std::string>{"d4"});
  play(*s, "O:f3-e4/c4-d4");
  EXPECT_EQ(s->serialize(),
            "##.....##/#.......#/........./........./....*..../...OO..../........./#.....BB#/"
            "##....B## B 2");
  EXPECT_EQ(bs(*s).position().count[1], 3);
}

TEST_F(BilobaTest, TV08_RefillOrderMatters) {
  const std::string start =
      "##.....##/#.......#/........./........./....*..../.OB....../...BO..../#..O..BB#/##....B## "
      "O 2";
  auto a = at(start);
  play(*a, "O:e3-d4/d4-c4/d2-d3");
  EXPECT_EQ(a->serialize(),
            "##.....##/#.......#/........./........./....*..../.OO....../...O...../#.....BB#/"
            "##....B## B 2");
  auto b = at(start);
  play(*b, "O:e3-d4/b4-c4/d4-d3");
  EXPECT_EQ(b->serialize(),
            "##.....##/#.......#/........./........./....*..../..O....../...O...../#..O..BB#/"
            "##....B## B 2");
  EXPECT_EQ(bs(*a).position().count[1], 3);
  EXPECT_EQ(bs(*b).position().count[1], 3);
  // Every refill sequence of the move is a legal move of its own; after d4-c4 b4 has no gap
  // left, so order A has two refills and leaves d4 empty.
  std::vector<std::string> moves;
  for (const std::string& m : legal(*at(start))) {
    if (starts_with(m, "e3-d4")) moves.push_back(m);
  }
  EXPECT_EQ(moves, (std::vector<std::string>{"e3-d4/b4-c4/d2-d3", "e3-d4/b4-c4/d4-d3",
                                             "e3-d4/d2-d3/b4-c4", "e3-d4/d2-d3/d4-c4",
                                             "e3-d4/d4-c4/d2-d3", "e3-d4/d4-d3/b4-c4"}));
  EXPECT_THROW(at(start)->parse_move("e3-d4/d4-c4"), RuleError);        // a refill is missing
  EXPECT_THROW(at(start)->parse_move("e3-d4/d4-c4/d4-d3"), RuleError);  // d4 is gone
  EXPECT_THROW(at(start)->parse_move("e3-d4/d4-c4/d2-d3/b4-c4"), RuleError);
}

TEST_F(BilobaTest, TV09_RefillChain) {
  auto s =
      at("##...O.##/#.....O.#/.......O./........./.B..*..../........./..OOB..../#.B.....#/"
         "##.....## B 2");
  play(*s, "B:b5-c4/c2-c3/e3-d3");
  EXPECT_EQ(s->serialize(),
            "##...O.##/#.....O.#/.......O./........./....*..../..B....../..BB...../#.......#/"
            "##.....## O 2");
}

TEST_F(BilobaTest, TV10_ForcedCaptureEndsTheTurn) {
  auto s =
      at("##OOO..##/#.......#/........./........./....*..../........./...O.O.../#...B...#/"
         "##..BBB## B 2");
  play(*s, "B:e2-e3");
  EXPECT_EQ(legal(*s), (std::vector<std::string>{"x/d3-e3", "x/f3-e3"}));
  EXPECT_THROW(s->parse_move("e9-e8"), RuleError);  // no move: the turn is the capture
  EXPECT_THROW(s->parse_move("x"), RuleError);      // the refill is chosen
  play(*s, "O:x/d3-e3");
  EXPECT_EQ(s->serialize(),
            "##OOO..##/#.......#/........./........./....*..../........./....OO.../#.......#/"
            "##..BBB## B 2");

  // Variant: 2 v 2 after the capture; refill skipped, orange fails canEatSoon.
  auto v =
      at("##.....##/#.......#/........./........./....*..../........./...O.O.../#...B...#/"
         "##...BB## B 2");
  play(*v, "B:e2-e3");
  EXPECT_EQ(legal(*v), std::vector<std::string>{"x+out"});
  play(*v, "O:x+out");
  EXPECT_TRUE(v->is_terminal());
  EXPECT_EQ(v->serialize(),
            "##.....##/#.......#/........./........./....*..../........./........./#.......#/"
            "##...BB## B 2");
  EXPECT_EQ(v->result_text(), "Result: Blue wins.");
  EXPECT_EQ(v->returns(), (std::vector<double>{0.0, 1.0}));
}

TEST_F(BilobaTest, TV11_OutOfTurnCaptureWaitsForItsOwner) {
  auto s =
      at("##OOO..##/#.......#/........B/........B/....*..../....O...B/...R.R.../#.......#/"
         "##.RRR.## O 3");
  play(*s, "O:e4-e3 B:i4-h4 R:x/d3-e3");
  EXPECT_EQ(s->serialize(),
            "##OOO..##/#.......#/........B/........B/....*..../.......B./....RR.../#.......#/"
            "##.RRR.## O 3");
  EXPECT_EQ(bs(*s).position().count, (std::array<std::uint8_t, 4>{3, 3, 5, 0}));
}

TEST_F(BilobaTest, TV12_PendingCaptureDisappears) {
  auto s =
      at("##OOO..##/#.......#/........B/........./....*..../....OB.../...R.R.../#.......#/"
         "##.RR.B## O 3");
  play(*s, "O:e4-e3 B:g1-f2/f2-f3");
  EXPECT_LT(s->legal_moves()[0][0], kSquares);  // red has a normal move, no capture
  play(*s, "R:d1-c2");
  EXPECT_EQ(s->serialize(),
            "##OOO..##/#.......#/........B/........./....*..../.....B.../...ROB.../#.R.....#/"
            "##..R..## O 3");
}

TEST_F(BilobaTest, TV13_EliminationTestWithTwoPawns) {
  auto a =
      at("##.....##/#.......#/........./........./....*..../..OB...../....O..../#.....BB#/"
         "##....B## O 2");
  EXPECT_TRUE(can_eat_soon(bs(*a).position(), 0));
  play(*a, "O:e3-e4/c4-d4");
  EXPECT_EQ(a->serialize(),
            "##.....##/#.......#/........./........./....*..../...OO..../........./#.....BB#/"
            "##....B## B 2");
  auto b =
      at("##.....##/#.......#/........./........./....*..../..OB...../........./#...O.BB#/"
         "##....B## O 2");
  EXPECT_FALSE(can_eat_soon(bs(*b).position(), 0));
  EXPECT_EQ(legal(*b), std::vector<std::string>{"out"});
  EXPECT_EQ(b->steps_of(b->legal_moves()[0]), std::vector<std::string>{});
  EXPECT_TRUE(b->next_steps({}).complete);
  play(*b, "O:out");
  EXPECT_EQ(b->serialize(),
            "##.....##/#.......#/........./........./....*..../...B...../........./#.....BB#/"
            "##....B## B 2");
  EXPECT_TRUE(b->is_terminal());
  EXPECT_EQ(b->result_text(), "Result: Blue wins.");
}

TEST_F(BilobaTest, TV14_CanEatSoonThroughDecorativeCorners) {
  auto s =
      at("##.....##/#BO.....#/.O......./........./....*..../........./........./#.....BB#/"
         "##....B## O 2");
  EXPECT_TRUE(can_eat_soon(bs(*s).position(), 0));
  EXPECT_EQ(s->current_seat(), 0);
  EXPECT_EQ(dests(bs(*s).position(), "b7"), "a7 a6 b6 c7 c6");
  EXPECT_EQ(dests(bs(*s).position(), "c8"), "a6 c9 c7 d9 d8 d7");
  EXPECT_EQ(legal(*s).size(), 11u);
}

TEST_F(BilobaTest, TV15_SinglePawnSurvivesThroughTheCentreClause) {
  auto s =
      at("##.....##/#.......#/........./...OB..../....*..../........./........./#.....BB#/"
         "##....B## O 2");
  EXPECT_TRUE(can_eat_soon(bs(*s).position(), 0));
  EXPECT_LT(s->legal_moves()[0][0], kSquares);
}

TEST_F(BilobaTest, TV16_TwoSurvivorsWithTwoPawnsEach) {
  // 3 players, orange dead: play goes on; blue fails canEatSoon.
  auto three =
      at("##.....##/#.......#/..B....../..B....../....*..../........./......R../"
         "#.....R.#/##.....## O 3");
  EXPECT_FALSE(three->is_terminal());
  EXPECT_EQ(three->current_seat(), 1);  // orange has no pawns: blue's turn
  play(*three, "B:out");
  EXPECT_EQ(three->result_text(), "Result: Red wins.");
  EXPECT_EQ(three->returns(), (std::vector<double>{0.0, 0.0, 1.0}));
  // 2 players, the same material: over before any click, a draw.
  auto two =
      at("##.....##/#.......#/..O....../..O....../....*..../........./......B../"
         "#.....B.#/##.....## O 2");
  EXPECT_TRUE(two->is_terminal());
  EXPECT_EQ(two->result_text(), "Result: Draw.");
  EXPECT_EQ(two->returns(), (std::vector<double>{0.5, 0.5}));
  EXPECT_TRUE(two->legal_moves().empty());
}

TEST_F(BilobaTest, TV17_NoLegalMovePassesOrWaits) {
  const std::string pos =
      "##OOOBB##/#BBBBB..#/BBBBBBB../........./....*..../........./........./#.......#/##.....## "
      "O 2";
  auto s = at(pos);
  EXPECT_EQ(legal(*s), std::vector<std::string>{"pass"});
  EXPECT_TRUE(s->next_steps({}).complete);
  EXPECT_TRUE(s->next_steps({}).next.empty());
  EXPECT_THROW(s->parse_move("c9-c8"), RuleError);
  play(*s, "O:pass");
  EXPECT_EQ(s->current_seat(), 1);
  EXPECT_EQ(s->serialize(), pos.substr(0, pos.size() - 3) + "B 2");
  // The original waits for ever: the state is over with no result.
  auto w = at(pos, "biloba(no_legal_move=wait)");
  EXPECT_TRUE(w->is_terminal());
  EXPECT_EQ(w->result_text(), "Result: none.");
  EXPECT_EQ(w->returns(), (std::vector<double>{0.5, 0.5}));
}

TEST_F(BilobaTest, TV18_RefillCycleLeavesASquareEmpty) {
  auto s =
      at("##.....##/#.......#/........./........./....*..../..OBO..../...BB..../#...O.BB#/"
         "##....B## O 2");
  play(*s, "O:x/c4-d4/e2-e3");
  EXPECT_EQ(s->serialize(),
            "##.....##/#.......#/........./........./....*..../...OO..../....O..../#.....BB#/"
            "##....B## B 2");
}

TEST_F(BilobaTest, TV19_DrawMadeByTheMover) {
  auto s =
      at("##.....##/#.......#/........./........./....*..../..OB...../....O..../#.....BB#/"
         "##.....## O 2");
  EXPECT_NO_THROW(s->parse_move("e3-e4"));
  EXPECT_THROW(s->parse_move("e3-e4/c4-d4"), RuleError);  // the refill is skipped
  play(*s, "O:e3-e4");
  EXPECT_EQ(s->serialize(),
            "##.....##/#.......#/........./........./....*..../..O.O..../........./#.....BB#/"
            "##.....## B 2");
  EXPECT_EQ(s->result_text(), "Result: Draw.");
  EXPECT_EQ(s->returns(), (std::vector<double>{0.5, 0.5}));
}

TEST_F(BilobaTest, TV20_HelpPageDrawIsAWin) {
  auto s =
      at("##.....##/#.......#/........./........./.OO.*..../BBB....../........./#.O.....#/"
         "##.....## O 2");
  play(*s, "O:c2-b3/b3-b4 B:x+out");
  EXPECT_EQ(s->serialize(),
            "##.....##/#.......#/........./........./.OO.*..../........./........./#.......#/"
            "##.....## O 2");
  EXPECT_EQ(s->result_text(), "Result: Orange wins.");
  EXPECT_EQ(s->returns(), (std::vector<double>{1.0, 0.0}));
}

TEST_F(BilobaTest, TV21_RefillChoiceExposesTheMover) {
  const std::string start =
      "##OOO..##/#.......#/........./........./....*..../..B.B..../...BO..../#..O..BB#/##.....## "
      "O 2";
  auto s = at(start);
  play(*s, "O:e3-d4/d2-d3 B:x/c4-d4");
  EXPECT_EQ(s->serialize(),
            "##OOO..##/#.......#/........./........./....*..../...BB..../...O...../#.....BB#/"
            "##.....## O 2");
  auto escape = at(start);
  play(*escape, "O:e3-d4/d4-d3");
  EXPECT_EQ(escape->current_seat(), 1);
  EXPECT_LT(escape->legal_moves()[0][0], kSquares);  // blue must move: no capture
}

// ---------------------------------------------------------------------------------------------
// Scenarios of the golden data: results the generated games never reach.

TEST_F(BilobaTest, ResultsAndReturns) {
  // SC-01: orange (2 pawns) takes blue's last pawn at its turn start, then fails its own test:
  // the board is empty and there is no result.
  auto none =
      at("##.....##/#.......#/........./........./....*..../........./........./"
         "#...OBO.#/##.....## O 2");
  EXPECT_EQ(legal(*none), std::vector<std::string>{"x+out"});
  none->apply_text("x+out");
  EXPECT_EQ(none->result_text(), "Result: none.");
  EXPECT_EQ(none->returns(), (std::vector<double>{0.5, 0.5}));
  // A lone survivor with one pawn: "Draw", shared by every seat.
  auto lone =
      at("##.....##/#.......#/........./........./....*..../........./........./"
         "#...O...#/##.....## O 3");
  EXPECT_EQ(lone->result_text(), "Result: Draw.");
  EXPECT_EQ(bs(*lone).outcome(), Outcome::kDraw);
  const double third = 1.0 / 3;
  EXPECT_EQ(lone->returns(), (std::vector<double>{third, third, third}));
  EXPECT_EQ(result_string(*lone), "1/3-1/3-1/3");
  // Turn cap: a draw shared by the seats that still have pawns.
  auto capped = make_game("biloba(players=3,turn_cap=2)")->initial_state();
  EXPECT_EQ(capped->serialize().substr(capped->serialize().size() - 5), "O 3 0");
  capped->apply_text("e7-e6");
  EXPECT_FALSE(capped->is_terminal());
  capped->apply_text("h6-g6");
  EXPECT_TRUE(capped->is_terminal());
  EXPECT_EQ(capped->serialize().substr(capped->serialize().size() - 5), "R 3 2");
  EXPECT_EQ(capped->returns(), (std::vector<double>{third, third, third}));
  EXPECT_EQ(capped->result_text(), "Result: Draw (turn cap of 2 turns).");
  auto reparsed = capped->game()->parse_state(capped->serialize());
  EXPECT_TRUE(reparsed->equals(*capped));
  EXPECT_TRUE(reparsed->is_terminal());
}

// ---------------------------------------------------------------------------------------------
// Notation, print-out, options, steps, records

TEST_F(BilobaTest, TokensParseCaseInsensitivelyAndPrintCanonically) {
  auto s =
      at("##.....##/#.......#/........./........./....*..../..OB...../.....O.../#.....BB#/"
         "##....B## O 2");
  const Move m = s->parse_move("F3-E4/C4-D4");
  EXPECT_EQ(s->move_to_string(m), "f3-e4/c4-d4");
  auto code = [](const char* sq) { return static_cast<Move::Code>(*parse_square(sq)); };
  EXPECT_EQ(m, (Move{code("f3"), code("e4"), code("c4"), code("d4")}));
  EXPECT_EQ(s->steps_of(m), (std::vector<std::string>{"f3", "e4", "c4", "d4"}));
  EXPECT_EQ(s->move_from_steps({"F3", "e4", "c4", "D4"}), m);
  auto start = at(kStart2);
  EXPECT_EQ(start->move_to_string(start->parse_move("D6-E5-F5")), "d6-e5-f5");
  EXPECT_EQ(start->steps_of(start->parse_move("d6-e5-f5")),
            (std::vector<std::string>{"d6", "e5", "f5"}));
}

TEST_F(BilobaTest, BadTokensNameTheProblem) {
  auto s = at(kStart2);
  auto message = [&s](const std::string& text) {
    try {
      s->parse_move(text);
    } catch (const RuleError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(""), "empty turn token: expected a move such as e7-e6");
  EXPECT_EQ(message("e7"), "'e7' is not a turn token: a move needs two squares, e.g. e7-e6");
  EXPECT_EQ(message("e7-z9"), "'e7-z9' is not a turn token: 'z9' is not a square (a1..i9)");
  EXPECT_EQ(message("e7-b9"), "'e7-b9' is not a turn token: b9 is not a playable square");
  EXPECT_EQ(message("d7-d6-d5"),
            "'d7-d6-d5' is not a turn token: a three-square move must pass through e5 (a centre "
            "walk such as d6-e5-f5)");
  EXPECT_EQ(message("out+out"),
            "'out+out' is not a turn token: +out only follows x (eliminated after forced "
            "captures)");
  EXPECT_EQ(message("pass/c4-d4"), "'pass/c4-d4' is not a turn token: pass has no refills");
  EXPECT_EQ(message("e4-e5-d5"), "e4-e5-d5 is not legal: there is no Orange pawn on e4");
  EXPECT_EQ(message("e7-e6"),
            "e7-e6 is not legal: e6 is not a destination of the pawn on e7 (steps go to empty "
            "neighbours; a jump goes over one pawn, never backwards)");
  EXPECT_EQ(message("d6-e5"),
            "d6-e5 is not legal: a pawn never stops on the centre e5; a centre walk is written "
            "like d6-e5-f5");
  EXPECT_EQ(message("d6-e5-d6"),
            "d6-e5-d6 is not legal: the walk must leave e5 to an empty neighbour other than d6, "
            "not d6");
  EXPECT_EQ(message("d6-d5/c4-d4"),
            "d6-d5/c4-d4 is not legal: refill c4-d4: no refill is asked for");
  EXPECT_EQ(message("x"), "x is not legal: no pawn is sandwiched at the start of Orange's turn");
  EXPECT_EQ(message("out"), "out is not legal: Orange is not eliminated");
  EXPECT_EQ(message("pass"), "pass is not legal: Orange has a legal move");
  EXPECT_EQ(message("e9-e8"),
            "e9-e8 is not legal: e8 is not a destination of the pawn on e9 (steps go to empty "
            "neighbours; a jump goes over one pawn, never backwards)");
  auto blocked =
      at("##OOOBB##/#BBBBB..#/BBBBBBB../........./....*..../........./........./"
         "#.......#/##....O## O 2");
  EXPECT_THROW(blocked->parse_move("d9-d8"), RuleError);
  try {
    blocked->parse_move("d9-d8");
  } catch (const RuleError& e) {
    EXPECT_EQ(std::string(e.what()), "d9-d8 is not legal: the Orange pawn on d9 cannot move");
  }
  // Steps.
  EXPECT_THROW(s->next_steps({"e4"}), RuleError);
  EXPECT_THROW(s->next_steps({"zz"}), RuleError);
  EXPECT_THROW(s->move_from_steps({"d6"}), RuleError);
  try {
    s->next_steps({"d6", "d4"});
    ADD_FAILURE();
  } catch (const RuleError& e) {
    EXPECT_EQ(std::string(e.what()), "step d4 is not legal here: expected one of c5 d5 e5");
  }
  EXPECT_EQ(s->serialize(), kStart2);  // unchanged
}

TEST_F(BilobaTest, BadPositionsNameTheProblem) {
  auto game = make_game("biloba");
  auto message = [&game](const std::string& text) {
    try {
      game->parse_state(text);
    } catch (const RuleError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string rows =
      "##..O..##/#..OOO..#/..OOOOO../.OOOOOOO./....*..../.BBBBBBB./..BBBBB../#..BBB..#/##..B..##";
  EXPECT_EQ(message(rows + " O 3"),
            "bad Biloba position '" + rows +
                " O 3': it is a 3-player position and this game has 2 players");
  EXPECT_NE(message(rows + " R 2").find("the colour to move must be one of OB"), std::string::npos);
  EXPECT_NE(
      message(rows + " O 2 5").find("a turn count is only written when the game has a turn_cap"),
      std::string::npos);
  std::string bad = rows;
  bad[0] = '.';
  EXPECT_NE(message(bad + " O 2").find("square a9 is not playable and must be '#'"),
            std::string::npos);
  bad = rows;
  bad[44] = 'O';  // e5
  EXPECT_NE(message(bad + " O 2").find("a pawn never rests on the centre e5"), std::string::npos);
  bad = rows;
  bad[12] = 'G';
  EXPECT_NE(message(bad + " O 2").find("Green does not play with 2 players"), std::string::npos);
  EXPECT_NE(message("nonsense").find("expected 9 rows"), std::string::npos);
  // Lower case is accepted.
  EXPECT_EQ(game->parse_state(to_lower(rows) + " o 2")->serialize(), kStart2);
}

TEST_F(BilobaTest, TextBoard) {
  auto s = at(kStart2);
  EXPECT_EQ(s->to_text(),
            "   a b c d e f g h i\n"
            "9  # # . . O . . # #  9\n"
            "8  # . . O O O . . #  8\n"
            "7  . . O O O O O . .  7\n"
            "6  . O O O O O O O .  6\n"
            "5  . . . . * . . . .  5\n"
            "4  . B B B B B B B .  4\n"
            "3  . . B B B B B . .  3\n"
            "2  # . . B B B . . #  2\n"
            "1  # # . . B . . # #  1\n"
            "   a b c d e f g h i\n"
            "Orange to move. Pawns: Orange 16, Blue 16.\n");
  auto four = make_game("biloba(players=4)")->initial_state();
  const std::string text = four->to_text();
  EXPECT_EQ(text.substr(text.rfind("Orange to move")),
            "Orange to move. Pawns: Orange 8, Blue 8, Red 8, Green 8.\n");
  auto won =
      at("##.....##/#.......#/........./........./.OO.*..../........./........./#.......#/"
         "##.....## B 2");
  EXPECT_EQ(won->to_text({"alice", "bob"})
                .substr(won->to_text({"alice", "bob"})
                            .rfind('\n', won->to_text({"alice", "bob"}).size() - 2) +
                        1),
            "Result: alice wins.\n");
}

TEST_F(BilobaTest, GameInfoAndOptions) {
  auto game = make_game("biloba");
  EXPECT_EQ(game->spec(), "biloba");
  EXPECT_EQ(game->num_seats(), 2);
  EXPECT_EQ(make_game("biloba(players=4)")->num_seats(), 4);
  EXPECT_EQ(make_game("Biloba(classic)")->spec(), "biloba(no_progress=0)");  // issue 14
  EXPECT_EQ(make_game("biloba(players=3,no_legal_move=wait,turn_cap=50)")->spec(),
            "biloba(players=3,no_legal_move=wait,turn_cap=50)");
  EXPECT_EQ(game->seat_label(0), "O");
  EXPECT_EQ(make_game("biloba(players=4)")->seat_label(3), "G");
  EXPECT_EQ(game->seat_name(1), "Blue");
  EXPECT_EQ(game->record_style(), RecordStyle::kSeatPrefixed);
  EXPECT_THROW(make_game("biloba(players=5)"), OptionError);
  EXPECT_THROW(make_game("biloba(players=1)"), OptionError);
  EXPECT_THROW(make_game("biloba(no_legal_move=skip)"), OptionError);
  EXPECT_THROW(make_game("biloba(turn_cap=-1)"), OptionError);
}

TEST_F(BilobaTest, DistinctMovesMergeWalksWithSteps) {
  auto s = at(kStart2);
  // d6-e5-d5 = d6-d5, e6-e5-d5 = e6-d5, e6-e5-f5 = e6-f5, f6-e5-f5 = f6-f5.
  EXPECT_EQ(s->distinct_moves().size(), 64u);
  // Refills made in another order reach the same position (TV-08 has six orders of 3 results).
  auto t =
      at("##.....##/#.......#/........./........./....*..../.OB....../...BO..../#..O..BB#/"
         "##....B## O 2");
  int from_e3_d4 = 0;
  for (const Move& m : t->distinct_moves())
    from_e3_d4 += starts_with(t->move_to_string(m), "e3-d4");
  EXPECT_EQ(from_e3_d4, 3);
}

TEST_F(BilobaTest, RecordsAreSeatPrefixed) {
  auto start =
      at("##OOO..##/#.......#/........./........./....*..../..B.B..../...BO..../"
         "#..O..BB#/##.....## O 2");
  auto s = start->clone();
  const Move first = s->parse_move("e3-d4/d2-d3");
  s->apply(first);
  const Move second = s->parse_move("x/c4-d4");
  s->apply(second);
  const std::vector<Move> moves = {first, second};
  const std::string record = write_record(*start, moves);
  EXPECT_EQ(record,
            "[Game \"biloba\"]\n"
            "[Position \"##OOO..##/#.......#/........./........./....*..../..B.B..../...BO..../"
            "#..O..BB#/##.....## O 2\"]\n"
            "[Result \"*\"]\n"
            "O:e3-d4/d2-d3 B:x/c4-d4\n");
  auto loaded = load_record(record);
  EXPECT_TRUE(loaded.state->equals(*s));
  // A 3-player record omits seats without pawns (TV-16: orange dead, blue moves first).
  auto r = load_record(
      "[Game \"biloba\"]\n[Options \"players=3\"]\n"
      "[Position \"##.....##/#.......#/..B....../..B....../....*..../........./......R../"
      "#.....R.#/##.....## O 3\"]\nB:out\n");
  EXPECT_EQ(r.state->result_text(), "Result: Red wins.");
}

TEST_F(BilobaTest, PerftFromTheStart) {
  auto two = make_game("biloba")->initial_state();
  EXPECT_EQ(perft(*two, 1), 68u);
  EXPECT_EQ(perft(*two, 2), 4506u);
  EXPECT_EQ(perft(*two, 3), 311364u);
  auto three = make_game("biloba(players=3)")->initial_state();
  EXPECT_EQ(perft(*three, 1), 35u);
  auto four = make_game("biloba(players=4)")->initial_state();
  EXPECT_EQ(perft(*four, 1), 35u);
  EXPECT_EQ(perft(*four, 2), 1222u);
  EXPECT_EQ(perft(*four, 3), 42665u);
}

}  // namespace
}  // namespace plateau::biloba
