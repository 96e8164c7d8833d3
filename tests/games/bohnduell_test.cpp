// BohnDuell rules: every test vector of specs/bohnduell.md §13 with exact states, the print-out
// of §8, the negative cases of §12 item 7, invariants of §11.1 and pinned perft counts.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.h"
#include "core/perft.h"
#include "core/random.h"
#include "core/record.h"
#include "core/registry.h"
#include "games/bohnduell/bohnduell_game.h"
#include "games/bohnduell/bohnduell_notation.h"
#include "games/register.h"

namespace plateau::bohnduell {
namespace {

class BohnDuellTest : public ::testing::Test {
 protected:
  void SetUp() override { register_builtin_games(); }

  static std::unique_ptr<State> at(const std::string& position,
                                   const std::string& spec = "bohnduell") {
    return make_game(spec)->parse_state(position);
  }
  static std::vector<std::string> legal(const State& s) {
    std::vector<std::string> out;
    for (const Move& m : s.legal_moves()) out.push_back(s.move_to_string(m));
    std::sort(out.begin(), out.end());
    return out;
  }
  // Applies `move` to `position` and returns the resulting state notation.
  static std::string after(const std::string& position, const std::string& move,
                           const std::string& spec = "bohnduell") {
    auto s = at(position, spec);
    s->apply_text(move);
    return s->serialize();
  }
};

TEST_F(BohnDuellTest, TV01_SupplyMoveWithoutSteal) {
  EXPECT_EQ(after("A[0 0 0 0] s12 S0 · B[0 0 0 0] s12 S0 · A to move", "S1"),
            "A[1 1 1 1] s8 S0 · B[0 0 0 0] s12 S0 · B to move");
}

TEST_F(BohnDuellTest, TV02_TV03_StealAndStealBack) {
  const std::string tv02 = after("A[1 1 1 1] s8 S0 · B[0 0 0 0] s12 S0 · B to move", "S4");
  EXPECT_EQ(tv02, "A[0 1 1 1] s8 S0 · B[0 0 0 1] s11 S1 · A to move");
  EXPECT_EQ(after(tv02, "S1"), "A[1 2 2 2] s4 S1 · B[0 0 0 0] s11 S1 · B to move");
}

TEST_F(BohnDuellTest, TV04_HarvestLeavesDeadBowl) {
  EXPECT_EQ(after("A[1 2 0 0] s5 S0 · B[0 0 0 0] s5 S0 · A to move", "H2"),
            "A[2 0 0 0] s5 S1 · B[0 0 0 0] s5 S0 · B to move");
}

TEST_F(BohnDuellTest, TV05_DistanceOneHarvestGoesToStore) {
  EXPECT_EQ(after("A[1 0 3 0] s5 S2 · B[0 0 0 0] s5 S0 · A to move", "H1"),
            "A[0 0 3 0] s5 S3 · B[0 0 0 0] s5 S0 · B to move");
}

TEST_F(BohnDuellTest, TV06_HarvestSowsInFront) {
  EXPECT_EQ(after("A[0 1 3 0] s0 S2 · B[0 0 0 0] s5 S0 · A to move", "H3"),
            "A[1 2 0 0] s0 S3 · B[0 0 0 0] s5 S0 · B to move");
}

TEST_F(BohnDuellTest, TV07_LongestSowing) {
  EXPECT_EQ(after("A[0 0 0 4] s0 S0 · B[0 0 0 0] s5 S0 · A to move", "H4"),
            "A[1 1 1 0] s0 S1 · B[0 0 0 0] s5 S0 · B to move");
}

TEST_F(BohnDuellTest, TV08_LegalMovesWithShortSupplyAndUnripeBowl) {
  auto s = at("A[0 3 0 0] s2 S0 · B[0 0 0 0] s5 S0 · A to move");
  EXPECT_EQ(legal(*s), (std::vector<std::string>{"S3", "S4"}));
}

TEST_F(BohnDuellTest, TV09_StealAtTarget) {
  EXPECT_EQ(after("A[1 0 0 0] s5 S0 · B[0 0 4 0] s5 S0 · A to move", "S2"),
            "A[1 1 1 1] s2 S4 · B[0 0 0 0] s5 S0 · B to move");
}

TEST_F(BohnDuellTest, TV10_StealScope) {
  const std::string pos = "A[0 0 0 0] s10 S0 · B[1 2 3 0] s3 S0 · A to move";
  EXPECT_EQ(after(pos, "S1"), "A[1 1 1 1] s6 S0 · B[1 2 3 0] s3 S0 · B to move");
  EXPECT_EQ(after(pos, "S1", "bohnduell(steal_scope=any)"),
            "A[1 1 1 1] s6 S6 · B[0 0 0 0] s3 S0 · B to move");
}

TEST_F(BohnDuellTest, TV11_ExactSupplyAndPartial) {
  const std::string pos = "A[0 0 0 0] s2 S0 · B[0 0 0 0] s5 S0 · A to move";
  EXPECT_EQ(legal(*at(pos)), (std::vector<std::string>{"S3", "S4"}));
  EXPECT_EQ(after(pos, "S3"), "A[0 0 1 1] s0 S0 · B[0 0 0 0] s5 S0 · B to move");
  const std::string partial = "bohnduell(short_supply=partial)";
  EXPECT_EQ(legal(*at(pos, partial)), (std::vector<std::string>{"S1", "S2", "S3", "S4"}));
  EXPECT_EQ(after(pos, "S1", partial), "A[1 1 0 0] s0 S0 · B[0 0 0 0] s5 S0 · B to move");
}

TEST_F(BohnDuellTest, TV12_TV13_ForcedPassThenStealOfDeadBowlEndsGame) {
  auto s = at("A[2 0 0 0] s0 S0 · B[0 0 0 0] s1 S0 · A to move");
  EXPECT_EQ(s->current_seat(), 1);  // A passes automatically
  EXPECT_EQ(legal(*s), (std::vector<std::string>{"S4"}));
  s->apply_text("S4");
  EXPECT_EQ(s->serialize(), "A[0 0 0 0] s0 S0 · B[0 0 0 1] s0 S2 · over");
  EXPECT_TRUE(s->is_terminal());
  EXPECT_EQ(s->returns(), (std::vector<double>{0.0, 1.0}));
  EXPECT_EQ(s->result_text(), "Game over: A 0, B 2. B wins.");
}

TEST_F(BohnDuellTest, TV14_LeftoversDoNotScoreByDefault) {
  const std::string pos = "A[0 3 0 0] s0 S10 · B[0 0 0 2] s0 S10";
  auto s = at(pos);
  EXPECT_TRUE(s->is_terminal());
  EXPECT_EQ(s->returns(), (std::vector<double>{0.5, 0.5}));
  EXPECT_EQ(s->result_text(), "Game over: A 10, B 10. Draw.");
  auto owner = at(pos, "bohnduell(leftovers=owner)");
  EXPECT_EQ(owner->result_text(), "Game over: A 13, B 12. A wins.");
  EXPECT_EQ(owner->returns(), (std::vector<double>{1.0, 0.0}));
}

TEST_F(BohnDuellTest, TV15_NoStealOnHarvest) {
  EXPECT_EQ(after("A[0 2 0 0] s3 S0 · B[0 0 5 6] s3 S0 · A to move", "H2"),
            "A[1 0 0 0] s3 S1 · B[0 0 5 6] s3 S0 · B to move");
}

TEST_F(BohnDuellTest, TV16_StealOpponentsDeadBowl) {
  EXPECT_EQ(after("A[0 0 0 0] s3 S0 · B[3 0 0 0] s3 S0 · A to move", "S4"),
            "A[0 0 0 1] s2 S3 · B[0 0 0 0] s3 S0 · B to move");
}

TEST_F(BohnDuellTest, TV17_StealOnlyAtTargetUnlessAny) {
  const std::string pos = "A[0 0 1 0] s3 S0 · B[2 5 0 0] s3 S0 · A to move";
  EXPECT_EQ(after(pos, "S3"), "A[0 0 2 1] s1 S0 · B[2 5 0 0] s3 S0 · B to move");
  EXPECT_EQ(after(pos, "S3", "bohnduell(steal_scope=any)"),
            "A[0 0 2 1] s1 S2 · B[0 5 0 0] s3 S0 · B to move");
}

TEST_F(BohnDuellTest, TV18_ShortGameFromRecord) {
  auto g = load_record("[Game \"bohnduell\"]\n[Options \"supply=4\"]\nA:S1 B:S1 A:H1 B:H1\n");
  EXPECT_EQ(g.state->serialize(), "A[0 1 1 0] s0 S1 · B[0 1 1 1] s0 S2 · over");
  EXPECT_EQ(g.state->result_text(), "Game over: A 1, B 2. B wins.");
}

TEST_F(BohnDuellTest, TV19_RunAgainstPassingOpponent) {
  const std::string record =
      "[Game \"bohnduell\"]\n[Position \"A[1 2 2 4] s0 S0 · B[0 0 0 0] s0 S0 · A to move\"]\n"
      "A:H1 B:pass A:H2 B:pass A:H1 B:pass A:H4 B:pass A:H1 B:pass A:H3 B:pass A:H1 B:pass "
      "A:H2 B:pass A:H1\n";
  auto g = load_record(record);
  EXPECT_EQ(g.state->serialize(), "A[0 0 0 0] s0 S9 · B[0 0 0 0] s0 S0 · over");
  EXPECT_EQ(g.state->result_text(), "Game over: A 9, B 0. A wins.");
  // Written back, the record has the same passes.
  EXPECT_EQ(write_record(*g.initial, g.moves),
            "[Game \"bohnduell\"]\n"
            "[Position \"A[1 2 2 4] s0 S0 · B[0 0 0 0] s0 S0 · A to move\"]\n"
            "[Result \"1-0\"]\n"
            "A:H1 B:pass A:H2 B:pass A:H1 B:pass A:H4 B:pass A:H1 B:pass A:H3 B:pass A:H1\n"
            "B:pass A:H2 B:pass A:H1\n");
}

TEST_F(BohnDuellTest, TV20_StartPrintOut) {
  auto s = make_game("bohnduell")->initial_state();
  EXPECT_EQ(s->to_text({"alice", "bob"}),
            "       B1  B2  B3  B4\n"
            "[  0]   0   0   0   0\n"
            "        0   0   0   0  [  0]\n"
            "       A4  A3  A2  A1\n"
            "B bob: supply 20, store 0\n"
            "A alice: supply 20, store 0\n"
            "A to move.\n");
}

TEST_F(BohnDuellTest, PrintOutExampleOfSection8) {
  auto s = at("A[0 1 1 1] s8 S0 · B[0 0 0 1] s11 S1 · A to move");
  EXPECT_EQ(s->to_text({"alice", "bob"}),
            "       B1  B2  B3  B4\n"
            "[  1]   0   0   0   1\n"
            "        1   1   1   0  [  0]\n"
            "       A4  A3  A2  A1\n"
            "B bob: supply 11, store 1\n"
            "A alice: supply 8, store 0\n"
            "A to move.\n");
}

TEST_F(BohnDuellTest, NotationIsCaseInsensitiveWithOneOptionalSpace) {
  auto s = make_game("bohnduell")->initial_state();
  EXPECT_EQ(s->move_to_string(s->parse_move("s 4")), "S4");
  EXPECT_EQ(s->move_to_string(s->parse_move("s4")), "S4");
  EXPECT_THROW(s->parse_move("s  4"), RuleError);
  EXPECT_THROW(s->parse_move("S5"), RuleError);
  EXPECT_THROW(s->parse_move("X1"), RuleError);
  EXPECT_THROW(s->parse_move(""), RuleError);
}

// §12 item 7: every rejected move names the reason and leaves the game unchanged.
TEST_F(BohnDuellTest, RejectedMovesSayWhyAndChangeNothing) {
  auto s = at("A[0 3 0 0] s2 S0 · B[0 0 0 0] s5 S0 · A to move");
  const std::string before = s->serialize();
  auto message = [&](const std::string& move) {
    try {
      s->apply_text(move);
    } catch (const RuleError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message("H2"), "H2 is not legal: bowl A2 holds 3 balls, a harvest needs exactly 2");
  EXPECT_EQ(message("H1"), "H1 is not legal: bowl A1 holds 0 balls, a harvest needs exactly 1");
  EXPECT_EQ(message("S1"), "S1 is not legal: it needs 4 balls and A's supply holds 2");
  EXPECT_EQ(message("pass"),
            "pass is never entered: a player without a legal move passes automatically");
  EXPECT_EQ(message("Q7"), "'Q7' is not a BohnDuell move: expected S1..S4 or H1..H4");
  EXPECT_EQ(s->serialize(), before);

  auto over = at("A[0 3 0 0] s0 S10 · B[0 0 0 2] s0 S10");
  EXPECT_THROW(over->apply_text("S4"), RuleError);
  try {
    over->apply_text("S4");
  } catch (const RuleError& e) {
    EXPECT_STREQ(e.what(), "S4 is not legal: the game is over");
  }
}

TEST_F(BohnDuellTest, RecordRejectsMoveBySeatNotToMove) {
  try {
    load_record("[Game \"bohnduell\"]\nA:S4\nA:S4\n");
    FAIL() << "accepted";
  } catch (const RecordError& e) {
    EXPECT_STREQ(e.what(), "line 3: entry A:S4 but B is to move");
  }
}

TEST_F(BohnDuellTest, RecordRejectsPassThatIsNotForced) {
  try {
    load_record("[Game \"bohnduell\"]\nA:S4 A:pass\n");
    FAIL() << "accepted";
  } catch (const RecordError& e) {
    EXPECT_STREQ(e.what(), "line 2: A:pass is not a forced pass: B is to move");
  }
  try {
    load_record("[Game \"bohnduell\"]\nA:S4 B:pass\n");
    FAIL() << "accepted";
  } catch (const RecordError& e) {
    EXPECT_STREQ(e.what(), "line 2: move 2 (pass) is illegal: pass is never entered: a player "
                           "without a legal move passes automatically");
  }
}

TEST_F(BohnDuellTest, BadPositionsAreRejected) {
  auto game = make_game("bohnduell");
  EXPECT_THROW(game->parse_state("A[0 0 0] s1 S0 · B[0 0 0 0] s1 S0"), RuleError);
  EXPECT_THROW(game->parse_state("A[0 0 0 0] s99 S0 · B[0 0 0 0] s1 S0"), RuleError);
  EXPECT_THROW(game->parse_state("A[0 0 0 0] s1 S0 · B[0 0 0 0] s1 S0 · C to move"), RuleError);
  EXPECT_THROW(game->parse_state(""), RuleError);
  EXPECT_THROW(game->parse_state("A[0 0 0 0] s1 S0 · B[0 0 0 0] s1 S0 · over"), RuleError);
}

TEST_F(BohnDuellTest, OptionErrorsListWhatIsAccepted) {
  try {
    make_game("bohnduell(supply=64)");
    FAIL();
  } catch (const OptionError& e) {
    EXPECT_STREQ(e.what(), "bad value '64' for option supply: expected an integer 1..63");
  }
  try {
    make_game("bohnduell(steal_scope=all)");
    FAIL();
  } catch (const OptionError& e) {
    EXPECT_STREQ(e.what(), "bad value 'all' for option steal_scope: expected one of target, any");
  }
}

// Perft from the start position. 1..3 checked by hand: 4 first moves, 4 replies each; then A
// has 4 supply moves, plus H1 in the 3 lines where A:S1 left A1 holding its 1 ball: 64 + 3.
TEST_F(BohnDuellTest, PerftFromStartIsPinned) {
  auto s = make_game("bohnduell(supply=20)")->initial_state();
  EXPECT_EQ(perft(*s, 1), 4u);
  EXPECT_EQ(perft(*s, 2), 16u);
  EXPECT_EQ(perft(*s, 3), 67u);
  EXPECT_EQ(perft(*s, 4), 281u);
  EXPECT_EQ(perft(*s, 5), 1252u);
  EXPECT_EQ(perft(*s, 6), 5630u);
}

// §11.1 invariants I1 (conservation), I2 (colour separation), I3 (potential strictly falls,
// so at most 4N moves) and I4 (at the end both supplies are 0 and no bowl is ripe).
TEST_F(BohnDuellTest, InvariantsHoldInRandomGames) {
  for (int supply : {1, 4, 12, 20, 63}) {
    auto game = make_game("bohnduell(supply=" + std::to_string(supply) + ")");
    Rng rng(static_cast<std::uint64_t>(supply));
    for (int g = 0; g < 300; ++g) {
      auto s = game->initial_state();
      auto& st = dynamic_cast<BohnDuellState&>(*s);
      auto potential = [&] {
        const Position& p = st.position();
        int phi = 2 * (p.side[0].supply + p.side[1].supply);
        for (const Side& side : p.side)
          for (int d = 1; d <= kBowls; ++d) phi += side.bowl[d];
        return phi;
      };
      int moves = 0;
      while (!s->is_terminal()) {
        const int phi = potential();
        auto legal_moves = s->legal_moves();
        s->apply(legal_moves[rng.below(static_cast<std::uint32_t>(legal_moves.size()))]);
        ++moves;
        ASSERT_LT(potential(), phi);
        const Position& p = st.position();
        int total = 0;
        for (const Side& side : p.side) {
          int own = side.supply;
          for (int d = 1; d <= kBowls; ++d) own += side.bowl[d];
          ASSERT_LE(own, supply);
          total += own + side.store;
        }
        ASSERT_EQ(total, 2 * supply);
      }
      ASSERT_LE(moves, 4 * supply);
      const Position& p = st.position();
      for (const Side& side : p.side) {
        ASSERT_EQ(side.supply, 0);
        for (int d = 1; d <= kBowls; ++d) ASSERT_NE(side.bowl[d], d);
      }
    }
  }
}

}  // namespace
}  // namespace plateau::bohnduell
