#pragma once
// Biloba notation (specs/biloba.md §7): turn tokens such as `f3-e4/c4-d4`, `d6-e5-f5`,
// `x/d3-e3`, `x+out`, `out`, `pass`, and the position string of §7.5.
#include <string>
#include <string_view>
#include <vector>

#include "core/move.h"
#include "games/biloba/biloba_rules.h"

namespace plateau::biloba {

// Canonical (lower-case) turn token of the move codes of a complete turn (biloba_rules.h).
std::string turn_token(const Move& move);

// A turn token read for its syntax only (legality is checked against a position elsewhere).
struct TokenSyntax {
  enum class Body { kMove, kX, kOut, kPass };
  Body body = Body::kMove;
  std::vector<int> squares;                  // kMove: {from, to} or {from, kCentre, exit}
  std::vector<std::pair<int, int>> refills;  // flanker → captured square, in order
  bool plus_out = false;                     // "+out" after "x"
};

// Parses the grammar of §7.2, case-insensitive, no spaces inside. Throws RuleError naming the
// bad part: "'e7-e9-e8' is not a turn token: a three-square move must pass through e5".
TokenSyntax parse_token_syntax(std::string_view text);

// The position string of §7.5: 9 rows from rank 9, '/'-separated, then the colour letter to
// move and the number of players; `turns` >= 0 appends the turns played (only games with a
// turn cap write it, biloba_game.h).
std::string format_position(const Position& pos, int turns = -1);

// Parses a position string for a game of `players`. Letters and cells are case-insensitive;
// '#' must stand exactly on the 12 unplayable cells, '*' on e5 (a pawn never rests there), and
// each colour has at most 16 (2 players) or 8 (3–4 players) pawns. A fourth field (turns
// played) is accepted only when `allow_turns`. Pawns are numbered in scan order (§2.4).
// Throws RuleError naming the problem.
Position parse_position(std::string_view text, int players, bool allow_turns);

}  // namespace plateau::biloba
