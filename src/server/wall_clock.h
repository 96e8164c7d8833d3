#pragma once
// The server's wall clock (ms since the epoch), which a test may move forward: `plateau serve
// --test-clock-offset-file FILE` (a hidden flag, for tests only: only whoever starts the server
// can set it, no network client can) names a file holding a number of milliseconds added to
// the system clock, read again on every correspondence tick (correspondence_ticker.h), so that
// a test runs days of correspondence time in seconds. Without the flag the offset is 0.
#include <cstdint>
#include <optional>
#include <string>

namespace plateau::server {

// The system clock plus the offset. Thread-safe. (TableServices::now_ms() is this one.)
std::int64_t wall_clock_ms();
// The system clock alone: what the store's heartbeat records (Snapshot::alive_ms), so that the
// downtime after a restart is measured on the same clock.
std::int64_t system_clock_ms();
// Sets the offset (ms). Thread-safe.
void set_wall_clock_offset_ms(std::int64_t offset_ms);
// The offset a file holds: decimal digits (an optional leading '-'), surrounding blanks
// ignored, at most 10 years either way; nullopt if the file cannot be read or holds anything
// else (the caller keeps the offset it had). Reads at most 64 bytes.
std::optional<std::int64_t> read_clock_offset_file(const std::string& path);

}  // namespace plateau::server
