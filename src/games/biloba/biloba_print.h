#pragma once
// The text board print-out of specs/biloba.md §8 and the result lines of §6.3.
#include <string>
#include <vector>

#include "games/biloba/biloba_rules.h"

namespace plateau::biloba {

// How a finished game ended (§6.3, §3.4, §9).
enum class Outcome {
  kOngoing,   // not over
  kWin,       // the unique seat with >= 2 pawns wins
  kDraw,      // "Draw": no seat, or several seats, with >= 2 pawns; or the turn cap was reached
  kNoResult,  // every pawn is gone (or no_legal_move = wait left a seat stuck for ever)
};

// Display name of `seat`: its entry in `names` when present and non-empty, else the colour.
std::string seat_display_name(int seat, const std::vector<std::string>& names);

// "Result: Orange wins.", "Result: Draw." or "Result: none."; "" for kOngoing. A draw with a
// `cause` (Plateau's turn cap or no-progress rule, biloba_game.h) reads "Result: Draw (cause).";
// the rules' own draw (§6.3) keeps the §8 line "Result: Draw.".
std::string result_line(Outcome outcome, int winner, const std::vector<std::string>& names,
                        const std::string& cause = "");

// The board of §8: file header, 9 rank lines, file footer, then the status line
// ("Orange to move. Pawns: Orange 16, Blue 16." or the result line, with `cause` as in
// result_line). Ends with a newline.
std::string board_text(const Position& pos, Outcome outcome, int winner,
                       const std::vector<std::string>& names, const std::string& cause = "");

}  // namespace plateau::biloba
