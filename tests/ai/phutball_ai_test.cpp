// Phutball's win-in-one search (specs/phutball.md §13.2, §13.3) on every test vector of §15
// that has a ball move: it finds the winning path where there is one and proves "no win"
// elsewhere; and the evaluation's symmetry (§13.4 item 7).
#include "games/phutball/phutball_ai.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "ai/bot.h"
#include "core/registry.h"
#include "games/phutball/phutball_game.h"
#include "games/phutball/phutball_notation.h"
#include "games/register.h"

namespace plateau::phutball {
namespace {

// `text` without "ply=": ply 0 is added.
std::unique_ptr<State> position(const std::string& spec, const std::string& text) {
  register_builtin_games();
  // winningways repeats no position (superko): its position strings carry the history.
  const bool history = spec.find("winningways") != std::string::npos;
  return make_game(spec)->parse_state(text + " ply=0" + (history ? " history=" : ""));
}

// The winning move found, in notation, or "none".
std::string win_of(const State& s) {
  auto m = s.find_winning_move();
  if (!m) return "none";
  // The move is legal and wins for the mover.
  auto t = s.clone();
  t->apply(s.parse_move(s.move_to_string(*m)));
  EXPECT_TRUE(t->is_terminal());
  EXPECT_EQ(t->returns()[static_cast<std::size_t>(s.current_seat())], 1.0);
  return s.move_to_string(*m);
}

struct Vector {
  const char* name;
  const char* spec;
  const char* position;
  const char* win;  // the winning path, or "none"
};

TEST(PhutballWinInOne, SpecVectors) {
  const Vector vectors[] = {
      {"TV-01", "phutball", "ball=H10 men= turn=O", "none"},
      {"TV-02", "phutball", "ball=H10 men=H11 turn=X", "none"},
      {"TV-03", "phutball", "ball=H10 men=H11,H12,H13 turn=O", "none"},
      {"TV-04", "phutball", "ball=H10 men=H11,H12,H14 turn=O", "none"},
      {"TV-05", "phutball", "ball=H10 men=H11,J12,H12,K11,H14 turn=X", "none"},
      {"TV-06", "phutball", "ball=C12 men=D12,E12,E13,D13,D11 turn=O", "none"},
      {"TV-07", "phutball", "ball=H10 men=H11,J11,J12 turn=O", "none"},
      {"TV-08a", "phutball", "ball=H17 men=H18,H19 turn=O", "H17-H20"},
      {"TV-08b", "phutball", "ball=H17 men=H18 turn=O", "H17-H19"},
      {"TV-09", "phutball", "ball=H17 men=H18,J18 turn=O", "H17-H19"},
      {"TV-10 pbmserv", "phutball", "ball=H17 men=H18,J18 turn=X", "none"},
      {"TV-10 winningways", "phutball(winningways)", "ball=H17 men=H18,J18 turn=X", "none"},
      {"TV-11", "phutball", "ball=H17 men=H18,H19 turn=X", "none"},
      {"TV-12a", "phutball", "ball=C10 men=B10,A10 turn=O", "none"},
      {"TV-13", "phutball", "ball=G18 men=H19 turn=O", "G18-J20"},
      {"TV-13 winningways", "phutball(winningways)", "ball=G18 men=H19 turn=O", "G18-J20"},
      {"TV-14 pbmserv", "phutball", "ball=O18 men=P19 turn=O", "none"},
      {"TV-14 winningways", "phutball(winningways)", "ball=O18 men=P19 turn=O", "O18-Q20"},
      {"TV-15a", "phutball", "ball=H2 men=H1 turn=X", "H2-H0"},
      {"TV-15b", "phutball", "ball=H3 men=H2 turn=X", "H3-H1"},
      {"TV-16", "phutball", "ball=E17 men=E18,D19,C19,B19,A19 turn=X", "none"},
      {"TV-17", "phutball", "ball=H10 men=H11,H13,J14,J15,K15,K16,K17,K18,K19,L17 turn=O",
       "H10-H12-H14-K14-K20"},
      {"TV-18", "phutball", "ball=H10 men=H11,A1,H13,A3,H15,A5,H17,A7,H19,A9 turn=O",
       "H10-H12-H14-H16-H18-H20"},
      {"TV-22a", "phutball(handicap=0.5)", "ball=H18 men=H19,H20 turn=O", "H18-H21"},
      {"TV-22b", "phutball(handicap=0.5)", "ball=H17 men=H18 turn=O", "none"},
      {"TV-22c", "phutball(handicap=0.5)", "ball=H18 men=H19 turn=O", "H18-H20"},
  };
  for (const Vector& v : vectors) {
    auto s = position(v.spec, v.position);
    EXPECT_EQ(win_of(*s), v.win) << v.name;
  }
}

std::string full_board_men(int skip_cell) {
  std::string men;
  register_builtin_games();
  const auto game = std::dynamic_pointer_cast<const PhutballGame>(make_game("phutball"));
  for (int cell : game->rules().points) {
    if (cell == skip_cell) continue;
    men += (men.empty() ? "" : ",") + point_name(cell);
  }
  return men;
}

TEST(PhutballWinInOne, FullBoardTv19) {
  const std::string men = full_board_men(cell_of(7, 10));  // every point but H10
  EXPECT_EQ(win_of(*position("phutball", "ball=H10 men=" + men + " turn=O")), "H10-H20");
  EXPECT_EQ(win_of(*position("phutball", "ball=H10 men=" + men + " turn=X")), "H10-H0");
}

std::string block_men(int half) {
  std::string men;
  for (int dc = -half; dc <= half; ++dc) {
    for (int dr = -half; dr <= half; ++dr) {
      if (dc == 0 && dr == 0) continue;
      men += (men.empty() ? "" : ",") + point_name(cell_of(7 + dc, 10 + dr));
    }
  }
  return men;
}

TEST(PhutballWinInOne, BlocksOfTv20HaveNoWinAndStayCheap) {
  // 3×3 and 5×5 blocks around H10: 110 and 138 jump states, none reaching a goal line.
  for (int half : {1, 2}) {
    auto s = position("phutball", "ball=H10 men=" + block_men(half) + " turn=O");
    EXPECT_EQ(win_of(*s), "none");
    auto& ps = dynamic_cast<const PhutballState&>(*s);
    JumpSearch j = search_jumps(ps, 1'000'000);
    EXPECT_TRUE(j.complete);
    EXPECT_EQ(j.states, half == 1 ? 110u : 138u);
  }
}

TEST(PhutballBots, RandomChoosesAmongDistinctPositions) {
  // In the 5×5 block many jump paths reach the same point; `random` used to draw from every
  // path (legal_moves), which in ordinary games can be tens of millions of moves.
  auto s = position("phutball", "ball=H10 men=" + block_men(2) + " turn=O");
  const std::vector<Move> distinct = s->distinct_moves();
  ASSERT_LT(distinct.size(), s->legal_moves().size());
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const Move m = make_bot("random", seed)->choose_move(*s);
    EXPECT_NE(std::find(distinct.begin(), distinct.end(), m), distinct.end())
        << "seed " << seed << ": " << s->move_to_string(m);
  }
}

TEST(PhutballWinInOne, BudgetedSearchSaysWhenItStopped) {
  auto s = position("phutball", "ball=H10 men=" + block_men(2) + " turn=O");
  JumpSearch j = search_jumps(dynamic_cast<const PhutballState&>(*s), 50);
  EXPECT_FALSE(j.complete);
}

TEST(PhutballBots, TakeTheWinAndBlockIt) {
  // TV-17: every level plays the winning path.
  const std::string tv17 = "ball=H10 men=H11,H13,J14,J15,K15,K16,K17,K18,K19,L17 turn=O";
  for (const char* bot : {"greedy", "1", "5"}) {
    auto s = position("phutball", tv17);
    EXPECT_EQ(s->move_to_string(make_bot(bot, 1)->choose_move(*s)), "H10-H12-H14-K14-K20") << bot;
  }
  // Ohs threatens N17-P19. The only defence is a man on P19: the hop then needs to land on Q20,
  // beyond the side (pbmserv has no corner exit). Levels that search see it.
  for (const char* bot : {"1", "3", "5"}) {
    auto s = position("phutball", "ball=N17 men=O18 turn=X");
    const Move m = make_bot(bot, 1)->choose_move(*s);
    EXPECT_EQ(s->move_to_string(m), "P19") << bot;
    s->apply(m);
    EXPECT_FALSE(s->find_winning_move().has_value());
  }
}

TEST(PhutballEval, SymmetricUnderRotation) {
  // eval(P) for Ohs equals eval(rot P) for Eks, rot = 180° turn with the sides swapped.
  auto rotate = [](const std::string& ball, const std::vector<std::string>& men, char turn) {
    auto flip = [](const std::string& p) {
      const std::string cols = "ABCDEFGHJKLMNOP";
      const int c = static_cast<int>(cols.find(p[0]));
      const int r = std::stoi(p.substr(1));
      return std::string(1, cols[14 - c]) + std::to_string(20 - r);
    };
    std::string text = "ball=" + flip(ball) + " men=";
    for (std::size_t i = 0; i < men.size(); ++i) text += (i ? "," : "") + flip(men[i]);
    return text + " turn=" + (turn == 'O' ? "X" : "O");
  };
  const std::vector<std::string> men = {"H11", "J12", "H12", "K11", "H14", "C5", "N17"};
  for (char turn : {'O', 'X'}) {
    std::string text = "ball=H10 men=";
    for (std::size_t i = 0; i < men.size(); ++i) text += (i ? "," : "") + men[i];
    text += std::string(" turn=") + turn;
    auto a = position("phutball", text);
    auto b = position("phutball", rotate("H10", men, turn));
    EXPECT_NEAR(a->evaluate()[0], b->evaluate()[1], 1e-12) << text;
  }
}

}  // namespace
}  // namespace plateau::phutball
