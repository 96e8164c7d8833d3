#pragma once
// A bot's principal line (ai::SearchResult::pv) as people read it, shared by `plateau analyse`
// and the server's `analyse` command: each move in the game's canonical notation with the seat
// that makes it and the position after it, and the line written as the game's records write
// moves (DESIGN.md §3): "8. H11 9. H9" for a numbered game (Phutball), "A:S4 B:S1 A:pass" for a
// seat-prefixed one (BohnDuell, Biloba).
#include <cstddef>
#include <string>
#include <vector>

#include "core/move.h"
#include "core/state.h"

namespace plateau::ai {

struct LineMove {
  int ply = 0;              // the ply this move makes (the position's ply() + 1 for the first)
  int seat = 0;             // game seat making it
  std::string label;        // its seat label ("O", "A")
  std::string move;         // canonical notation ("H10-H12")
  std::string position;     // State::serialize() after the move
  bool pass_after = false;  // two seats: the other seat had to pass after it (it moves again)
};

// The first `max_moves` moves of `pv` played from `state`, stopping where the game ends. `pv`
// must be legal in sequence from `state` (a search's line is); a move the rules refuse ends the
// line there (RuleError caught), so a stale line never throws.
std::vector<LineMove> principal_line(const State& state, const std::vector<Move>& pv,
                                     std::size_t max_moves);

// The line as the game's records write it: "8. H11 9. H9 10. H10-H12" (RecordStyle::kNumbered,
// the numbers are plies) or "A:S4 B:S4 A:pass" (kSeatPrefixed, a forced pass written where the
// turn was skipped). "" for an empty line.
std::string line_text(const Game& game, const std::vector<LineMove>& line);

}  // namespace plateau::ai
