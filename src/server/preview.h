#pragma once
// `preview` and `submit` (specs/phutball.md §10.2, §10.4; issue 15 item 2): the board page after
// some moves played on a scratch copy, nothing stored or told. The table (a board's preview) and
// the lobby (`preview new N`, a fresh board) share this.
#include <string>
#include <vector>

#include "core/state.h"
#include "server/event.h"
#include "server/page_view.h"

namespace plateau::server {

// Plays `moves` (as typed, e.g. "H11", "h10-h13-l10") on `state` in turn, adding each, canonical,
// to `input.moves` with the seat that played it, then sets `input.title` to "Preview of
// `heading`" and the status line to pbmserv's `This is a preview.`; returns the page. `state`
// is changed (a copy the caller owns). Throws CommandError naming the first move that is
// illegal ("preview: move 3 'H11' is illegal: ...") or a move after the game's end.
std::string preview_page(State& state, PageInput input, const std::vector<std::string>& moves,
                         const std::string& heading);

// The answer to a preview: a "preview" event (the text line, then the page).
Event preview_event(const std::string& game, int board, std::string text, std::string page);

}  // namespace plateau::server
