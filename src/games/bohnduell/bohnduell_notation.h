#pragma once
// BohnDuell notation (specs/bohnduell.md §7): move tokens S1..S4 and H1..H4, and the state
// notation `A[a1 a2 a3 a4] s<supply> S<store> · B[...] s.. S.. · A to move`.
#include <optional>
#include <string>
#include <string_view>

#include "games/bohnduell/bohnduell_rules.h"

namespace plateau::bohnduell {

// "S1".."S4", "H1".."H4" for codes 0..7.
std::string move_token(int code);

// Parses a move token: case-insensitive, one optional space ("s 4"). Returns the code, or
// nullopt if `text` is not a token at all (legality is not checked here).
std::optional<int> parse_move_token(std::string_view text);

// State notation, bowls listed by distance: "A[0 1 1 1] s8 S0 · B[0 0 0 1] s11 S1 · A to move"
// (or "· over" at the end). Uses the middle dot U+00B7 as the spec does.
std::string format_position(const Position& pos);

// Parses the state notation; the separators may be "·" or nothing, and the tail may be
// "A to move", "B to move", "A", "B", "over" or omitted (A). Normalises whose turn it is: a side
// to move without a legal move passes, and with no moves on either side the game is over.
// Throws RuleError naming the bad part (counts above 63 included).
Position parse_position(const Rules& rules, std::string_view text);

}  // namespace plateau::bohnduell
