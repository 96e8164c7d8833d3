#pragma once
// The board page: the reply to `show` and `move` on the text transport, in the pbmserv
// framework's frozen layout (specs/phutball.md §9.2), for any game: title, status line, rating
// lines, the move table above the board, the game's own print-out (State::to_text), comments.
#include <string>
#include <utility>
#include <vector>

#include "core/state.h"

namespace plateau::server {

struct PageMove {
  std::string text;        // canonical move, or "Resign" / "Forfeit"
  int seat = 0;            // game seat
  bool automatic = false;  // played from the queue: shown with " (Auto)"
};

struct PageInput {
  std::string title;                      // "Summary of Phutball Board 101"
  std::string status_line;                // "It is alice's turn."
  std::vector<std::string> rating_lines;  // at the end of a game
  std::vector<std::string> players;       // names by game seat
  std::vector<PageMove> moves;            // in play order
  bool full_list = false;                 // whole move list (game over) or the last 4 rows
  std::vector<std::pair<std::string, std::string>> comments;  // (user, text)
  std::vector<std::string> closing_lines;  // timestamps block at the end of a game
};

// The page for `state` (the position shown) with the given surroundings. Ends with a newline.
std::string board_page(const State& state, const PageInput& input);

// The header of one seat's column: "Ohs (o)" (seat name and lower-case label) or the label alone
// when the game's seat name is its label.
std::string seat_header(const Game& game, int seat);

}  // namespace plateau::server
