#pragma once
// The text board and the board page of specs/phutball.md §9 (pbmserv's layout, frozen).
#include <array>
#include <string>
#include <vector>

#include "games/phutball/phutball_rules.h"

namespace plateau::phutball {

// The board of §9.1: the column header, a blank line, rows `rules.rows` down to 1 (plus one
// extra line for an off-board ball, above the top row or below row 1), a blank line and the
// header again. Cells: `.` empty, `+` a man, `@` the ball. Ends with a newline.
std::string board_text(const Rules& rules, const Position& pos);

// The move table of §9.2 item 4: two header lines (side names, then the userids), then one line
// per pair of plies; each cell is 21 characters (ply number right-aligned in 3, a space, the
// move left-aligned in 17), trailing spaces removed; a move longer than 17 characters pushes its
// partner to the next line, indented by 21 spaces. `moves` are the entries in ply order (moves
// in canonical text, or "Resign", "Forfeit", "H11 (Auto)", "--"). Unless `whole`, only the last
// 4 pairs are shown (a running game). Each line ends with a newline.
std::string move_table(const std::array<std::string, 2>& userids,
                       const std::vector<std::string>& moves, bool whole);

// What the board page says in its title line (§9.2 item 1).
enum class PageKind { kSummary, kPreview, kError };

// The parts of a board page that only the server knows.
struct PageInfo {
  PageKind kind = PageKind::kSummary;
  int board = 101;                         // board number (§10.1: the first is 101)
  std::array<std::string, 2> userids;      // Ohs's (userid1) and Eks's (userid2)
  std::vector<std::string> moves;          // move-table entries in ply order
  std::string status;                      // status line; "" = derived from the position
  std::vector<std::string> rating_lines;   // printed under the status line at the end
  bool ended = false;                      // the game ended off the board (resign, forfeit)
  std::vector<std::string> trailer_lines;  // subscribers, comments, timestamps (item 6, 7)
};

// The board page of §9.2: title, blank, status line (derived when info.status is empty: "Please
// start the game, <userid1>." before the first move, "It is <userid>'s turn.", "Game won by
// <userid>." or "Game was a tie."), rating lines, blank, move table (whole once the game is
// over or info.ended), blank, the board of §9.1, then the trailer lines. Ends with a newline.
std::string board_page(const Rules& rules, const Position& pos, Outcome outcome,
                       const PageInfo& info);

}  // namespace plateau::phutball
