#pragma once
// The six help pages behind the "?" icon (the original's help facility: "the rules are fully
// explained with graphic diagrams; to advance through the help screens you just click
// anywhere"), in our own words and drawings, stating the rules this program plays
// (specs/biloba.md; the terminal's pages are src/cli/biloba_help.cpp).
#include <string>
#include <vector>

#include "gui/gui_strings.h"

namespace plateau::gui {

// A drawing: rows of cells, one character each:
//   ' ' nothing   '.' empty square   '*' the centre e5   'O' 'B' 'R' 'G' pawns
//   'o' 'b' the selected pawn (drawn with a ring)   '+' a marked target (empty, with a ring)
//   'x' a captured pawn (crossed out)
struct Diagram {
  std::vector<std::string> rows;
  std::string caption;
};

struct HelpPage {
  std::string title;
  std::vector<std::string> lines;  // paragraphs, already short enough to wrap
  std::vector<Diagram> diagrams;
};

inline constexpr int kHelpPages = 6;

// Page 1..kHelpPages; throws std::out_of_range otherwise.
const HelpPage& help_page(Lang lang, int page);

}  // namespace plateau::gui
