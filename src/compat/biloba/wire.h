#pragma once
// The framing of biloba 0.9.3's TCP protocol (specs/biloba.md §11.1, §11.3): every item is a
// message of one length byte L (0..255) and L payload bytes. Strings carry a terminating NUL
// (L = length + 1 <= 255), ints are 4 bytes big-endian signed (L = 4 exactly), chars 1 byte.
// These helpers build and read payloads; the transports (legacy_server.h, legacy_client.h) do
// the socket I/O. Nothing here blocks or allocates beyond the returned vectors.
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace plateau::biloba::net {

using Bytes = std::vector<std::uint8_t>;

// A peer broke the protocol (bad length, bad command, bad value). The message names the problem.
class ProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr int kMaxStringChars = 254;  // the original forces a NUL at index 254
inline constexpr int kMaxNameChars = 31;     // player and game names (§11.1)
inline constexpr int kMaxListedGames = 6;    // LISTGAME answers at most 6 games (§11.2)
inline constexpr std::int32_t kQuitCoord = -2;   // (−2, −2): a peer left
inline constexpr std::int32_t kRetryCoord = -1;  // (−1, −1): ask again (never sent by servers)

// Seat types of the player-details message (§11.3).
enum class SeatType : std::uint8_t { kLocal = 0, kNetwork = 1, kAi = 2, kReplay = 3 };

// Appends one framed message to `out`: a string (bytes + NUL; throws ProtocolError when longer
// than 254 bytes), an int (L = 4, big-endian), a char (L = 1) or raw bytes (throws when more
// than 255).
void put_string(Bytes& out, std::string_view text);
void put_int(Bytes& out, std::int32_t value);
void put_char(Bytes& out, char c);
void put_raw(Bytes& out, std::span<const std::uint8_t> payload);

// Payload readers. decode_int requires exactly 4 bytes and decode_char exactly 1 (else
// ProtocolError). decode_string stops at the first NUL (a payload without one is taken whole,
// at most 254 bytes, as the original forces a NUL at index 254).
std::int32_t decode_int(std::span<const std::uint8_t> payload);
char decode_char(std::span<const std::uint8_t> payload);
std::string decode_string(std::span<const std::uint8_t> payload);

// The player-details message (§11.3): [nump][type name NUL]... .
struct SeatDetail {
  SeatType type = SeatType::kNetwork;
  std::string name;
};
// Payload bytes for `seats` (1..4 seats, names cut to 31 characters).
Bytes encode_details(const std::vector<SeatDetail>& seats);
// Reads a details payload. Throws ProtocolError when nump is not 1..4, a type is not 0..3, or
// the payload ends early (a name without its NUL).
std::vector<SeatDetail> decode_details(std::span<const std::uint8_t> payload);

// Cuts `name` to at most `limit` bytes (names are Latin-1 bytes on the wire).
std::string clip(std::string_view name, std::size_t limit = kMaxNameChars);
// What Plateau's clients send a 0.9.3 peer as a name or a chat line: `text` (UTF-8, as typed)
// in Latin-1 where every character has a Latin-1 byte, as the original's own clients send it,
// so that the original shows "André" and not "AndrÃ©" (core/text.h
// utf8_to_latin1_if_possible); then clipped to `limit` bytes.
std::string outbound_text(std::string_view text, std::size_t limit = kMaxNameChars);

// "4F 4B 00" style dump of bytes (tests and logs).
std::string hex(std::span<const std::uint8_t> bytes);

}  // namespace plateau::biloba::net
