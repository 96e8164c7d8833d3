#pragma once
// What a board page shows (board_page.h renders it): plain data the table engine fills, so that
// the engine composes no page itself. The page is rendered once per event, by the renderer.
#include <memory>
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

// A page to render: the position shown (a copy the event owns) and its surroundings.
struct PageView {
  std::shared_ptr<const State> shown;
  PageInput input;
};
using PagePtr = std::shared_ptr<const PageView>;

}  // namespace plateau::server
