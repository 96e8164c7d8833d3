#pragma once
// The `.blb` replay file of biloba 0.9.3 (specs/biloba.md §13): "Biloba-game-dump", int32
// version 1, int32 num_players, num_players × {int32 len; name bytes}, then records of three
// int32 {seat, x, y} until the end of the file. Every int32 is in x86 byte order
// (little-endian) whatever the host, so files move between machines.
#include <cstdint>
#include <string>
#include <vector>

namespace plateau::biloba::net {

// One recorded click: seat and cell (x, y) in 0..8, or (−1, −1) (skipped by readers), or
// (−2, −2) (a peer left; written by servers only).
struct BlbRecord {
  std::int32_t seat = 0;
  std::int32_t x = 0;
  std::int32_t y = 0;
  friend bool operator==(const BlbRecord&, const BlbRecord&) = default;
};

struct BlbGame {
  std::vector<std::string> names;  // one per seat, 2..4 seats
  std::vector<BlbRecord> records;
};

// The file bytes of `game` (throws std::invalid_argument for fewer than 2 or more than 4 names).
std::string encode_blb(const BlbGame& game);
// Parses file bytes. Throws plateau::RecordError naming the problem: bad magic, version not 1,
// players not 2..4, a name length negative or ≥ 512 bytes (the original's buffer), a truncated
// name, a trailing partial record, a seat outside 0..players−1, or coordinates outside 0..8
// other than (−1, −1) and (−2, −2).
BlbGame decode_blb(const std::string& bytes);

// File I/O around encode/decode; throw RecordError when the file cannot be read or written.
BlbGame read_blb_file(const std::string& path);
void write_blb_file(const std::string& path, const BlbGame& game);

// The server's dump name "<id>-<name>.blb" with '/' in the name replaced by '_' (§13).
std::string dump_file_name(int id, const std::string& game_name);
// The client's "SAVE LAST GAME" path: $HOME/Desktop/Biloba-YYYY-MM-DD-HHMM.SS.blb, or
// $HOME/Biloba-… when there is no Desktop directory; local time `when` (seconds since epoch).
std::string save_last_game_path(long long when);

}  // namespace plateau::biloba::net
