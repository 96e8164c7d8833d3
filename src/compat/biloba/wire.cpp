#include "compat/biloba/wire.h"

#include "core/text.h"

#include <cstdio>

namespace plateau::biloba::net {

void put_string(Bytes& out, std::string_view text) {
  if (text.size() > static_cast<std::size_t>(kMaxStringChars)) {
    throw ProtocolError("string of " + std::to_string(text.size()) +
                        " bytes is longer than the protocol's 254");
  }
  out.push_back(static_cast<std::uint8_t>(text.size() + 1));
  out.insert(out.end(), text.begin(), text.end());
  out.push_back(0);
}

void put_int(Bytes& out, std::int32_t value) {
  const auto u = static_cast<std::uint32_t>(value);
  out.push_back(4);
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(u >> shift));
}

void put_char(Bytes& out, char c) {
  out.push_back(1);
  out.push_back(static_cast<std::uint8_t>(c));
}

void put_raw(Bytes& out, std::span<const std::uint8_t> payload) {
  if (payload.size() > 255) throw ProtocolError("raw message longer than 255 bytes");
  out.push_back(static_cast<std::uint8_t>(payload.size()));
  out.insert(out.end(), payload.begin(), payload.end());
}

std::int32_t decode_int(std::span<const std::uint8_t> payload) {
  if (payload.size() != 4) {
    throw ProtocolError("int message of length " + std::to_string(payload.size()) + ", not 4");
  }
  std::uint32_t u = 0;
  for (std::uint8_t b : payload) u = (u << 8) | b;
  return static_cast<std::int32_t>(u);
}

char decode_char(std::span<const std::uint8_t> payload) {
  if (payload.size() != 1) {
    throw ProtocolError("char message of length " + std::to_string(payload.size()) + ", not 1");
  }
  return static_cast<char>(payload[0]);
}

std::string decode_string(std::span<const std::uint8_t> payload) {
  std::string text;
  for (std::size_t i = 0; i < payload.size() && i < static_cast<std::size_t>(kMaxStringChars);
       ++i) {
    if (payload[i] == 0) break;
    text.push_back(static_cast<char>(payload[i]));
  }
  return text;
}

std::string clip(std::string_view name, std::size_t limit) {
  return std::string(name.substr(0, std::min(limit, name.size())));
}

std::string outbound_text(std::string_view text, std::size_t limit) {
  return clip(utf8_to_latin1_if_possible(text), limit);
}

Bytes encode_details(const std::vector<SeatDetail>& seats) {
  if (seats.empty() || seats.size() > 4) throw ProtocolError("player details need 1..4 seats");
  Bytes out;
  out.push_back(static_cast<std::uint8_t>(seats.size()));
  for (const SeatDetail& s : seats) {
    out.push_back(static_cast<std::uint8_t>(s.type));
    const std::string name = clip(s.name);
    out.insert(out.end(), name.begin(), name.end());
    out.push_back(0);
  }
  return out;
}

std::vector<SeatDetail> decode_details(std::span<const std::uint8_t> payload) {
  if (payload.empty()) throw ProtocolError("empty player details");
  const int nump = payload[0];
  if (nump < 1 || nump > 4) {
    throw ProtocolError("player details for " + std::to_string(nump) + " players (1..4)");
  }
  std::vector<SeatDetail> seats;
  std::size_t i = 1;
  for (int seat = 0; seat < nump; ++seat) {
    if (i >= payload.size()) throw ProtocolError("player details end before seat " +
                                                 std::to_string(seat));
    const int type = payload[i++];
    if (type > 3) {
      throw ProtocolError("seat " + std::to_string(seat) + " has type " + std::to_string(type) +
                          " (0..3)");
    }
    SeatDetail s;
    s.type = static_cast<SeatType>(type);
    while (i < payload.size() && payload[i] != 0) s.name.push_back(static_cast<char>(payload[i++]));
    if (i >= payload.size()) {
      throw ProtocolError("name of seat " + std::to_string(seat) + " has no terminating NUL");
    }
    ++i;  // the NUL
    s.name = clip(s.name);
    seats.push_back(std::move(s));
  }
  return seats;
}

std::string hex(std::span<const std::uint8_t> bytes) {
  std::string out;
  char buf[4];
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%02X", bytes[i]);
    if (i) out.push_back(' ');
    out += buf;
  }
  return out;
}

}  // namespace plateau::biloba::net
