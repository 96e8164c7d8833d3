#pragma once
// What the window says and marks about the click machine (biloba_clicks.h), without knowing
// any rule: the squares a click would act on are found by clicking copies of the machine, and a
// completed turn is described from its token and the pawn counts. Shared by the window and
// the terminal game (`biloba --text` announces forced takes and eliminations with it).
#include <cstddef>
#include <string>
#include <vector>

#include "games/biloba/biloba_clicks.h"
#include "gui/gui_strings.h"

namespace plateau::gui {

struct ClickHints {
  std::vector<int> selectable;  // squares a click would select (own pawns, refill takers)
  std::vector<int> targets;     // squares a click would move, refill or walk to
  int selected = -1;            // the machine's selection (-1 none)
};
// The hints of the machine now (empty when it is over). Costs 81 copies of the machine.
ClickHints click_hints(const biloba::ClickMachine& machine);

// Sentences about a completed turn `turn` that started from `before`: a forced take at the
// start of the turn, the number of pawns taken, an elimination, a pass. Names as
// biloba::seat_display_name (empty entries: the colour).
std::vector<std::string> turn_events(const biloba::ClickTurn& turn, const biloba::Position& before,
                                     const std::vector<std::string>& names, Lang lang);

// The test trace line of completed turn number `index` (1-based):
// "turn INDEX COLOUR-LETTER TOKEN POSITION" (POSITION as biloba::format_position).
std::string trace_turn(std::size_t index, const biloba::ClickTurn& turn);

// The result line of a finished game in `lang` ("Player 2 wins !", "Draw"; "" when the board
// is empty, as the original prints nothing then).
std::string result_text(const biloba::Position& final_board, const std::vector<std::string>& names,
                        Lang lang);

}  // namespace plateau::gui
