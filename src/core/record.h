#pragma once
// Game records (DESIGN.md §3): PGN-like text, tag lines then moves in canonical notation.
//
//   [Game "phutball"]
//   [Options "handicap=2"]
//   [Seats "alice,bob"]
//   [Date "2026-11-29"]
//   [Result "1-0"]
//   1. H11 2. J12 3. H12
//
// Recognised tags: Game (required), Options, Position (a serialised start position when the game
// did not start from the standard one), Seats (comma-separated names), Date, Result, Resigned
// (seat labels of the seats that resigned a game of 3+ seats and were played on by the
// computer: the Result is then the table's, not the board's). Other tags
// (Termination: how the game ended, e.g. "no progress" or, on the server, "resign") are kept
// as they are. Move text: ply numbers "N." are optional and skipped; a token may carry
// a seat prefix "A:S4"; "X:pass" records a forced pass of seat X and is checked to be forced;
// result tokens ("1-0", "0-1", "1/2-1/2", "*") are skipped; "{...}" comments are skipped.
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/game.h"

namespace plateau {

struct RecordToken {
  std::string seat;  // seat label before ':' or "" when the token had none
  std::string move;  // move text as written
  int line = 0;      // 1-based line of the token in the record text
};

struct Record {
  std::vector<std::pair<std::string, std::string>> tags;  // in file order
  std::vector<RecordToken> moves;

  // Value of tag `name` ("" if absent).
  std::string tag(std::string_view name) const;
  void set_tag(const std::string& name, const std::string& value);
};

// Reads the syntax of a record (no rules checked). Throws RecordError with the line number for
// a line that is not well-formed UTF-8 ("line 3: invalid UTF-8 at byte 12 of the line", the
// byte counted from 0), malformed tags, unterminated comments or a missing Game tag.
Record parse_record(std::string_view text);

// A record replayed through the rules.
struct ReplayedGame {
  std::shared_ptr<const Game> game;
  std::unique_ptr<State> initial;  // start position
  std::unique_ptr<State> state;    // position after every move
  std::vector<Move> moves;         // the moves in order (forced passes are not moves)
  std::vector<std::string> seats;  // names from the Seats tag (may be empty)
};

// Creates the game from the Game/Options tags, the start from Position (or the standard start),
// then applies every move. Throws RecordError naming the line and the problem: unknown game,
// bad option, bad position, "move 7 (H2) is illegal: <reason>", a seat prefix that is not the
// seat to move, a pass that is not forced, or a Result tag that contradicts a finished game.
ReplayedGame replay_record(const Record& record);

// parse_record then replay_record.
ReplayedGame load_record(std::string_view text);

// Header data that the rules cannot know.
struct RecordHeader {
  std::vector<std::string> seats;  // seat names, empty for none
  std::string date;                // "YYYY-MM-DD", empty for none
  std::string result;              // overrides the computed Result (e.g. a resignation "0-1")
  std::vector<std::pair<std::string, std::string>> extra_tags;
};

// Writes the record of `moves` played from `initial` (moves must be legal in sequence). Adds
// a Position tag when `initial` is not the game's standard start. Result is computed from the
// final position ("*" while unfinished) unless header.result is set. When the final position
// has a termination() (e.g. Biloba's "no progress"), no header.result is set and extra_tags has
// no Termination, a [Termination "no progress"] tag follows the others.
std::string write_record(const State& initial, const std::vector<Move>& moves,
                         const RecordHeader& header = {});

// Result text of a position: "*" before the end; two seats "1-0", "0-1", "1/2-1/2";
// more seats the returns joined with "-" ("1-0-0-0", "1/2-1/2-0").
std::string result_string(const State& state);

}  // namespace plateau
