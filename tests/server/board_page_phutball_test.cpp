// The server's board page is generic (any game); for Phutball it must be byte for byte the page
// the Phutball module prints itself (games/phutball/phutball_print.h, specs/phutball.md §9.2).
#include <gtest/gtest.h>

#include <random>

#include "core/registry.h"
#include "games/phutball/phutball_game.h"
#include "games/phutball/phutball_print.h"
#include "games/register.h"
#include "server/board_page.h"

namespace plateau::server {
namespace {

// Returns whether the game ended.
bool expect_same_pages(const std::string& spec, int plies, std::uint64_t seed,
                       const std::vector<std::string>& scripted = {}) {
  register_builtin_games();
  auto game = make_game(spec);
  auto state = game->initial_state();
  std::mt19937_64 rng(seed);
  std::vector<std::string> texts;
  for (int i = 0; i < plies && !state->is_terminal(); ++i) {
    Move m;
    if (i < static_cast<int>(scripted.size())) {
      m = state->parse_move(scripted[i]);
    } else {
      auto moves = state->distinct_moves();
      m = moves[rng() % moves.size()];
    }
    texts.push_back(state->move_to_string(m));
    state->apply(m);
  }
  const auto& ph = dynamic_cast<const phutball::PhutballState&>(*state);
  const std::string status = state->is_terminal() ? "Game won by somebody." : "It is alice's turn.";

  PageInput in;
  in.title = "Summary of Phutball Board 101";
  in.status_line = status;
  in.players = {"alice", "bob"};
  for (std::size_t i = 0; i < texts.size(); ++i) {
    in.moves.push_back({texts[i], static_cast<int>(i % 2), false});
  }
  in.full_list = state->is_terminal();

  phutball::PageInfo info;
  info.board = 101;
  info.userids = {"alice", "bob"};
  info.moves = texts;
  info.status = status;
  EXPECT_EQ(board_page(*state, in),
            phutball::board_page(ph.rules(), ph.position(), ph.outcome(), info))
      << spec << " seed " << seed << " after " << texts.size() << " plies";
  return state->is_terminal();
}

TEST(BoardPagePhutball, SameAsThePhutballModulesPage) {
  int ended = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    expect_same_pages("phutball", static_cast<int>(seed * 7), seed);
    expect_same_pages("phutball(handicap=0.5)", static_cast<int>(seed * 5), seed);
  }
  // TV-18: the ball leaves the board over row 19; the whole move list is shown.
  const std::vector<std::string> tv18 = {
      "H11", "A1", "H13", "A3", "H15", "A5", "H17", "A7", "H19", "A9", "H10-H12-H14-H16-H18-H20"};
  ended += expect_same_pages("phutball", 20, 1, tv18);
  // Eks wins over row 1 on a 20-row board.
  const std::vector<std::string> eks = {
      "A20", "H9", "A18", "H7", "A16", "H5", "A14", "H3", "A12", "H2", "H10-H8-H6-H4-H1"};
  ended += expect_same_pages("phutball(handicap=0.5)", 20, 1, eks);
  EXPECT_EQ(ended, 2);
}

}  // namespace
}  // namespace plateau::server
