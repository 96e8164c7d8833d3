#pragma once
// Who holds a seat at a table: nobody, a user, a CPU player or a biloba 0.9.3 network player.
// The kind is an enumeration in the server; its word ("", "user", "cpu", "legacy") appears only
// on the wire (the listings, the table event's seats) and in the stored snapshot, through
// seat_kind_word() and parse_seat_kind().
#include <stdexcept>
#include <string>
#include <string_view>

namespace plateau::server {

enum class SeatKind {
  kFree,    // nobody
  kUser,    // an account or a guest, by name
  kCpu,     // a CPU player, by bot level
  kLegacy,  // a player of a biloba 0.9.3 network game, by the name it gave
};

// The stored and wire word of `kind`: "" (free), "user", "cpu", "legacy". Never throws.
constexpr const char* seat_kind_word(SeatKind kind) {
  switch (kind) {
    case SeatKind::kUser:
      return "user";
    case SeatKind::kCpu:
      return "cpu";
    case SeatKind::kLegacy:
      return "legacy";
    case SeatKind::kFree:
      break;
  }
  return "";
}

// The kind named by `word` (seat_kind_word's inverse). Throws std::runtime_error naming the
// word for any other (a damaged snapshot).
inline SeatKind parse_seat_kind(std::string_view word) {
  for (SeatKind k : {SeatKind::kFree, SeatKind::kUser, SeatKind::kCpu, SeatKind::kLegacy}) {
    if (word == seat_kind_word(k)) return k;
  }
  throw std::runtime_error("unknown seat kind '" + std::string(word) + "'");
}

struct SeatOwner {
  SeatKind kind = SeatKind::kFree;
  std::string name;  // account name, or the bot level for kCpu; "" when free
  bool free() const { return kind == SeatKind::kFree; }
  bool operator==(const SeatOwner&) const = default;
};

}  // namespace plateau::server
