#pragma once
// The text board print-out of specs/bohnduell.md §8.
#include <string>
#include <vector>

#include "games/bohnduell/bohnduell_rules.h"

namespace plateau::bohnduell {

// The print-out from `viewer`'s side (0 = A at the bottom, 1 = B at the bottom). `names` are
// the seat names by seat; when absent the status lines read "A: supply 8, store 0".
// Ends with a newline.
std::string board_text(const Rules& rules, const Position& pos, int viewer,
                       const std::vector<std::string>& names);

// "Game over: A 1, B 2. B wins." (§8 item 6); "" while the game runs.
std::string game_over_line(const Rules& rules, const Position& pos);

}  // namespace plateau::bohnduell
