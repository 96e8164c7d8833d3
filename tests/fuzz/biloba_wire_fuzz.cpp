// libFuzzer target `biloba_wire`: the biloba 0.9.3 TCP framing (compat/biloba/wire.h). The input
// is a byte stream cut into messages as a peer sends them (one length byte L, L payload bytes;
// a short last message is taken as it is), and every payload goes through each decoder the
// legacy server and client use: int, char, string, player details. They return a value or throw
// ProtocolError; a decoded value encodes back to a payload that decodes to the same value.
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz_check.h"
#include "compat/biloba/wire.h"

namespace net = plateau::biloba::net;

namespace {

// The payload of the single message framed in `framed` (its length byte dropped).
std::span<const std::uint8_t> payload_of(const net::Bytes& framed) {
  FUZZ_CHECK(!framed.empty() && framed[0] + 1u == framed.size(), "framing of an encoded value");
  return std::span<const std::uint8_t>(framed).subspan(1);
}

void check_payload(std::span<const std::uint8_t> p) {
  try {
    const std::int32_t v = net::decode_int(p);
    net::Bytes b;
    net::put_int(b, v);
    FUZZ_CHECK(net::decode_int(payload_of(b)) == v, "int round trip");
    FUZZ_CHECK(std::equal(p.begin(), p.end(), b.begin() + 1), "int bytes differ");
  } catch (const net::ProtocolError&) {
    FUZZ_CHECK(p.size() != 4, "a 4-byte int rejected");
  }
  try {
    const char c = net::decode_char(p);
    net::Bytes b;
    net::put_char(b, c);
    FUZZ_CHECK(net::decode_char(payload_of(b)) == c, "char round trip");
  } catch (const net::ProtocolError&) {
    FUZZ_CHECK(p.size() != 1, "a 1-byte char rejected");
  }
  const std::string s = net::decode_string(p);
  FUZZ_CHECK(s.size() <= static_cast<std::size_t>(net::kMaxStringChars), "string too long");
  FUZZ_CHECK(s.find('\0') == std::string::npos, "string holds a NUL");
  net::Bytes b;
  net::put_string(b, s);
  FUZZ_CHECK(net::decode_string(payload_of(b)) == s, "string round trip");
  try {
    const auto seats = net::decode_details(p);
    FUZZ_CHECK(seats.size() >= 1 && seats.size() <= 4, "details seat count");
    const net::Bytes enc = net::encode_details(seats);
    const auto again = net::decode_details(enc);
    FUZZ_CHECK(again.size() == seats.size(), "details round trip: seat count");
    for (std::size_t i = 0; i < seats.size(); ++i) {
      FUZZ_CHECK(again[i].type == seats[i].type && again[i].name == seats[i].name,
                 "details round trip: seat " + std::to_string(i));
      FUZZ_CHECK(seats[i].name.size() <= static_cast<std::size_t>(net::kMaxNameChars),
                 "details name longer than 31 bytes");
    }
  } catch (const net::ProtocolError&) {
  }
  (void)net::hex(p);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::span<const std::uint8_t> in(data, size);
  while (!in.empty()) {
    const std::size_t len = std::min<std::size_t>(in[0], in.size() - 1);
    check_payload(in.subspan(1, len));
    in = in.subspan(1 + len);
  }
  return 0;
}
