#include "server/board_page.h"

#include <gtest/gtest.h>

#include "core/registry.h"
#include "games/register.h"

namespace plateau::server {
namespace {

// The move table of the page freezes pbmserv's layout (specs/phutball.md §9.2): 21-character
// cells, a long move pushing its partner to the next line, the last 4 rows while running. The
// layout does not depend on the game, so BohnDuell's print-out stands in for the board here.
std::string table_part(const std::string& page) {
  const auto start = page.find("    A");
  const auto end = page.find("\n\n", start);
  return page.substr(start, end - start + 1);
}

TEST(BoardPage, GoldenMoveTableOfTv18WholeList) {
  register_builtin_games();
  auto game = make_game("bohnduell");
  auto state = game->initial_state();
  PageInput in;
  in.title = "Summary of Phutball Board 102";
  in.status_line = "Game won by alice.";
  in.players = {"alice", "bob"};
  const char* plies[] = {
      "H11", "A1", "H13", "A3", "H15", "A5", "H17", "A7", "H19", "A9", "H10-H12-H14-H16-H18-H20"};
  int seat = 0;
  for (const char* p : plies) {
    in.moves.push_back({p, seat, false});
    seat = 1 - seat;
  }
  in.full_list = true;
  const std::string page = board_page(*state, in);
  EXPECT_EQ(page.substr(0, 51), "Summary of Phutball Board 102\n\nGame won by alice.\n\n");
  EXPECT_EQ(table_part(page),
            "    A                    B\n"
            "    alice                bob\n"
            "  1 H11                2 A1\n"
            "  3 H13                4 A3\n"
            "  5 H15                6 A5\n"
            "  7 H17                8 A7\n"
            "  9 H19               10 A9\n"
            " 11 H10-H12-H14-H16-H18-H20\n");
}

TEST(BoardPage, RunningGameShowsLastFourRowsLongMovesWrapAndSkippedTurns) {
  register_builtin_games();
  auto state = make_game("bohnduell")->initial_state();
  PageInput in;
  in.title = "Summary of BohnDuell Board 101";
  in.status_line = "It is bob's turn.";
  in.players = {"alice", "bob"};
  // alice moves twice in a row at plies 3-4 (bob passed): bob's cell shows "--".
  int seats[] = {0, 1, 0, 0, 1, 0, 1, 0, 1, 0};
  for (int i = 0; i < 10; ++i)
    in.moves.push_back({std::string(1, 'S').append(std::to_string(i % 4 + 1)), seats[i], false});
  in.moves[7].text = "H10-H12-H14-H16-H18";  // 19 characters: pushes its partner down
  in.moves[9].automatic = true;
  const std::string page = board_page(*state, in);
  auto row = [](std::string a, const std::string& b) { return a.append(21 - a.size(), ' ') + b; };
  EXPECT_EQ(table_part(page),
            "    A                    B\n"
            "    alice                bob\n" +
                row("  4 S4", "  5 S1") + "\n" + row("  6 S2", "  7 S3") + "\n" +
                "  8 H10-H12-H14-H16-H18\n" + row("", "  9 S1") + "\n" + " 10 S2 (Auto)\n");
  // Rows 1-3 (plies 1-3, and the "--" of bob's skipped turn) are left out while running.
  EXPECT_EQ(page.find("  1 S1"), std::string::npos);
  in.full_list = true;
  EXPECT_NE(table_part(board_page(*state, in)).find(row("  3 S3", "    --") + "\n"),
            std::string::npos);
}

TEST(BoardPage, SeatHeaders) {
  register_builtin_games();
  auto game = make_game("bohnduell");
  EXPECT_EQ(seat_header(*game, 0), "A");
}

}  // namespace
}  // namespace plateau::server
