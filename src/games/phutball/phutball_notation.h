#pragma once
// Phutball notation (specs/phutball.md §8): points `H11`, placements `H11`, ball moves
// `H10-H13-L10` with off-board landings on rows 0 and rows+1 (`H17-H20`) and, with corner_exit,
// the corner columns `@` (left of A) and `Q` (right of P); and Plateau's one-line position
// string (below).
//
// Position string (the State::serialize form; fields separated by single spaces):
//   ball=H10 men=H11,H12,J12 turn=X ply=3 [history=0123456789abcdef,...]
//   * ball: the ball's point (an off-board point such as H20 once a move has scored);
//   * men: every man, in board order (row 1 first, A to P within a row), "" for none;
//   * turn: O (Ohs) or X (Eks), the side to move (the side that would move, once over);
//   * ply: plies played so far (the `#n` check expects ply + 1, §10.2; ply_cap counts it);
//   * history: present exactly when the repetition option is not `none`: the 64-bit Zobrist keys
//     (hex) of every earlier position of the game, oldest first, which superko and threefold
//     repetition compare against (§6.4). Keys are stable across builds (fixed seed).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "games/phutball/phutball_rules.h"

namespace plateau::phutball {

// "A".."P" without I for columns 0..14, "@" for -1 and "Q" for 15 (corner cells).
char column_letter(int column);
// The name of mailbox cell `cell` (0 ≤ cell < kCells): "H10", "H20", "Q20".
const std::string& point_name(int cell);
// A move's canonical text from its codes (one cell, or the ball then the landings).
std::string move_text(const std::uint16_t* codes, std::size_t size);

// Parses one point, case-insensitive, of the mailbox: columns A..P (no I), plus @ and Q; rows
// 0..rules.rows+1. Throws RuleError "bad coordinate '<text>': <why>" otherwise (§8.4).
int parse_point(const Rules& rules, std::string_view text);

// Splits a move text into its points (§8.1, §8.2), after the caller removed `#n`: throws
// RuleError for an empty element ("H10--H13") or a bad coordinate. `text` is not empty.
std::vector<int> parse_points(const Rules& rules, std::string_view text);

// A parsed position string.
struct ParsedPosition {
  Position pos;
  int ply = 0;
  std::vector<std::uint64_t> history;  // earlier positions' keys (repetition != none)
};

// The position string of `pos` (see the file comment). `history` is written only when the
// rules have a repetition option.
std::string format_position(const Rules& rules, const Position& pos, int ply,
                            const std::vector<std::uint64_t>& history);

// Parses a position string. Throws RuleError naming the bad field: unknown or missing field,
// bad point, a man off the board or on the ball, a man twice, a ball where it cannot be, bad
// turn, bad ply, bad or unexpected history.
ParsedPosition parse_position(const Rules& rules, std::string_view text);

}  // namespace plateau::phutball
