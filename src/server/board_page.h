#pragma once
// The board page: the reply to `show` and `move` on the text transport, in the pbmserv
// framework's frozen layout (specs/phutball.md §9.2), for any game: title, status line, rating
// lines, the move table above the board, the game's own print-out (State::to_text), comments.
#include <memory>
#include <string>

#include "core/state.h"
#include "server/page_view.h"

namespace plateau::server {

// The page for `state` (the position shown) with the given surroundings. Ends with a newline.
std::string board_page(const State& state, const PageInput& input);
// The page of `view` (its position and surroundings); "" for a null view.
std::string board_page(const std::shared_ptr<const PageView>& view);

// The header of one seat's column: "Ohs (o)" (seat name and lower-case label) or the label alone
// when the game's seat name is its label.
std::string seat_header(const Game& game, int seat);

}  // namespace plateau::server
