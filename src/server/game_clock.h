#pragma once
// Optional game clocks (table option `clock`): a fixed time per move, or Fischer (a time bank
// plus an increment after each move). A player whose time runs out loses (DESIGN.md §5).
// All times are wall-clock milliseconds, so a restarted server resumes the clocks where they
// stood (time while the server was down counts, as it would for a correspondence game).
#include <cstdint>
#include <string>
#include <string_view>

#include "server/correspondence_clock.h"

namespace plateau::server {

struct ClockSettings {
  enum class Mode { kNone, kPerMove, kFischer };
  Mode mode = Mode::kNone;
  std::int64_t base_ms = 0;       // per-move limit, or the Fischer starting bank
  std::int64_t increment_ms = 0;  // Fischer only
  // Correspondence time (correspondence_clock.h): pbmserv's -nagtime/-forfeittime, which run
  // whatever the mode (a board without a clock too). Not part of to_string()/parse_clock: the
  // table stores them apart ("nagtime", "forfeittime", "by_mail").
  CorrespondenceSettings corr;

  bool enabled() const { return mode != Mode::kNone; }
  // "none", "move:60" (seconds per move) or "fischer:300+5" (bank + increment, seconds).
  std::string to_string() const;
};

// Parses the text forms of ClockSettings::to_string; throws std::invalid_argument naming the
// accepted forms. Limits: 1 s .. 365 days, increment 0 .. 1 day.
ClockSettings parse_clock(std::string_view text);

// Time the player to move may still use, counted from `turn_started_ms`, given their bank.
inline std::int64_t turn_allowance_ms(const ClockSettings& clock, std::int64_t bank_ms) {
  return clock.mode == ClockSettings::Mode::kPerMove ? clock.base_ms : bank_ms;
}

// Time a seat has left at `now_ms`, for a clock display. `running`: the seat is to move, its turn
// began at `turn_started_ms`, and it has its allowance less the time used so far (never below 0).
// Otherwise the seat has its whole allowance for its next turn, except a seat whose bank is
// empty: it lost on time (Table::on_clock empties it) and shows 0, also on a per-move clock
// whose allowance would be the whole time per move again. All in milliseconds.
inline std::int64_t time_left_ms(const ClockSettings& clock, std::int64_t bank_ms, bool running,
                                 std::int64_t turn_started_ms, std::int64_t now_ms) {
  if (bank_ms <= 0) return 0;
  const std::int64_t allowance = turn_allowance_ms(clock, bank_ms);
  if (!running) return allowance;
  const std::int64_t left = allowance - (now_ms - turn_started_ms);
  return left > 0 ? left : 0;
}

// The bank after a move that took `used_ms` (Fischer: bank - used + increment; per-move: the
// fixed limit).
inline std::int64_t bank_after_move(const ClockSettings& clock, std::int64_t bank_ms,
                                    std::int64_t used_ms) {
  if (clock.mode == ClockSettings::Mode::kFischer) return bank_ms - used_ms + clock.increment_ms;
  return clock.base_ms;
}

}  // namespace plateau::server
