// Phutball's level ladder (issue 14 item 4, docs/AI.md "Ladder"): level 2 (400 nodes: depth 2
// and part of depth 3) lost 96% of its games to level 1 (50 nodes: depth 1). The evaluation
// counted 0.75 of the mover's best jump and nothing of the other side's, so its value swung with
// the side to move; at odd depths ≥ 3 every leaf has the opponent to move, the search saw the
// opponent's ladders and never its own, and played passively. These tests pin the evaluation
// that fixed it (the mover's whole best jump, a quarter of the other side's) and the match that
// showed the bug.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "ai/match.h"
#include "core/registry.h"
#include "games/phutball/phutball_ai.h"
#include "games/register.h"

namespace plateau::phutball {
namespace {

std::unique_ptr<State> position(const std::string& text) {
  register_builtin_games();
  return make_game("phutball")->parse_state(text + " ply=0");
}

// Ohs's value for a ball `ahead` rows past the middle row (10), the evaluation's logistic.
double ohs_value(double ahead) { return 1.0 / (1.0 + std::exp(-0.3 * ahead)); }

TEST(PhutballLadder, EvaluationCountsTheMoversWholeJumpAndAQuarterOfTheOthers) {
  // Ohs can jump H10-H12; Eks's only hop (the same, upwards) gains it nothing: row 12 (the
  // old evaluation: 10 + 0.75 × 2 = 11.5).
  EXPECT_NEAR(position("ball=H10 men=H11 turn=O")->evaluate()[0], ohs_value(2.0), 1e-12);
  // Ohs's only hop goes backwards; Eks (not to move) threatens H10-H8: 10 + 0.25 × (8 − 10) =
  // 9.5 (the old evaluation ignored Eks's jump: exactly 0.5).
  EXPECT_NEAR(position("ball=H10 men=H9 turn=O")->evaluate()[0], ohs_value(-0.5), 1e-12);
  EXPECT_EQ(kEvalOtherJumpWeight, 0.25);
}

TEST(PhutballLadder, LevelTwoBeatsLevelOne) {
  // The first 10 games of `plateau match phutball 2 1 --games 200 --seed 1 --opening-plies 4
  // --max-plies 1000`: level 2 won none of them before the fix (8 s in release for 20 games,
  // several minutes under asan: 10 are enough).
  register_builtin_games();
  ai::MatchConfig c;
  c.game = make_game("phutball");
  c.bots = {"2", "1"};
  c.games = 10;
  c.seed = 1;
  c.opening_plies = 4;
  c.max_plies = 1000;
  const ai::MatchResult r = ai::run_match(c);
  EXPECT_EQ(r.stats[0].wins, 8);
  EXPECT_EQ(r.stats[0].draws, 0);
  EXPECT_EQ(r.stats[0].losses, 2);
}

}  // namespace
}  // namespace plateau::phutball
