// The bot levels (ai/levels.h) as the games' ladders give them: the same searches and budgets
// as before the ladders moved into the game folders (issue 13 item 9), with their descriptions,
// and the generic MCTS ladder for a game without one (toy_game.h).
#include "ai/levels.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/registry.h"
#include "games/register.h"
#include "toy_game.h"

namespace plateau {
namespace {

std::vector<std::string> descriptions(const Game& game) {
  std::vector<std::string> out;
  for (int level = 1; level <= 5; ++level) out.push_back(ai::level_spec(game, level).description);
  return out;
}

TEST(Levels, EachGameLadderAsTuned) {
  register_builtin_games();
  EXPECT_EQ(descriptions(*make_game("bohnduell")),
            (std::vector<std::string>{"alpha-beta, 30 nodes", "alpha-beta, 300 nodes",
                                      "alpha-beta, 3000 nodes", "alpha-beta, 30000 nodes",
                                      "exact solver, else alpha-beta, 300000 nodes"}));
  EXPECT_EQ(
      descriptions(*make_game("phutball")),
      (std::vector<std::string>{
          "alpha-beta, 50 nodes, 24 moves per node", "alpha-beta, 400 nodes, 24 moves per node",
          "alpha-beta, 2000 nodes, 24 moves per node", "alpha-beta, 8000 nodes, 24 moves per node",
          "alpha-beta, 25000 nodes, 24 moves per node"}));
  EXPECT_EQ(descriptions(*make_game("biloba")),
            (std::vector<std::string>{"alpha-beta, 100 nodes", "alpha-beta, 800 nodes",
                                      "alpha-beta, 4000 nodes", "alpha-beta, 12000 nodes",
                                      "alpha-beta, 80000 nodes"}));
  EXPECT_EQ(
      descriptions(*make_game("biloba(players=3)")),
      (std::vector<std::string>{"best-reply search, 100 nodes", "best-reply search, 600 nodes",
                                "best-reply search, 3000 nodes", "best-reply search, 10000 nodes",
                                "best-reply search, 30000 nodes"}));
}

TEST(Levels, SearchOptionsOfARung) {
  register_builtin_games();
  const ai::LevelSpec exact = ai::level_spec(*make_game("bohnduell"), 5);
  EXPECT_EQ(exact.algorithm, ai::Algorithm::kAlphaBeta);
  EXPECT_EQ(exact.budget, 300'000u);
  EXPECT_TRUE(exact.alphabeta.use_exact);
  EXPECT_EQ(exact.alphabeta.max_moves, 0u);
  EXPECT_EQ(exact.alphabeta.multi_seat, ai::MultiSeatMode::kParanoid);
  EXPECT_FALSE(ai::level_spec(*make_game("bohnduell"), 4).alphabeta.use_exact);
  const ai::LevelSpec beam = ai::level_spec(*make_game("phutball"), 3);
  EXPECT_EQ(beam.budget, 2'000u);
  EXPECT_EQ(beam.alphabeta.max_moves, 24u);
  EXPECT_FALSE(beam.alphabeta.use_exact);
  const ai::LevelSpec brs = ai::level_spec(*make_game("biloba(players=4)"), 2);
  EXPECT_EQ(brs.budget, 600u);
  EXPECT_EQ(brs.alphabeta.multi_seat, ai::MultiSeatMode::kBestReply);
  EXPECT_EQ(ai::level_spec(*make_game("biloba"), 2).alphabeta.multi_seat,
            ai::MultiSeatMode::kParanoid);
  EXPECT_THROW(ai::level_spec(*make_game("biloba"), 0), std::out_of_range);
  EXPECT_THROW(ai::level_spec(*make_game("biloba"), 6), std::out_of_range);
}

TEST(Levels, GenericLadderForAGameWithoutOne) {
  auto game = std::make_shared<testing::TakeAwayGame>(2, 10);
  const ai::LevelSpec one = ai::level_spec(*game, 1);
  EXPECT_EQ(one.algorithm, ai::Algorithm::kMcts);
  EXPECT_EQ(one.budget, 50u);
  EXPECT_EQ(one.mcts.playout_depth, 0);
  EXPECT_DOUBLE_EQ(one.mcts.exploration, 0.7);
  EXPECT_EQ(
      descriptions(*game),
      (std::vector<std::string>{"MCTS, 50 playouts", "MCTS, 300 playouts", "MCTS, 1500 playouts",
                                "MCTS, 6000 playouts", "MCTS, 20000 playouts"}));
}

}  // namespace
}  // namespace plateau
