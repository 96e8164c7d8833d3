#pragma once
// Helpers for the Biloba network tests: message builders, exact-byte reads, golden games.
#include <filesystem>
#include <gtest/gtest.h>
#include <zlib.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "games/biloba/biloba_board.h"
#include "games/biloba/biloba_rules.h"
#include "compat/biloba/legacy_client.h"
#include "compat/biloba/legacy_server.h"
#include "compat/biloba/wire.h"

namespace plateau::biloba::net::testing {

inline Bytes str(std::string_view s) {
  Bytes b;
  put_string(b, s);
  return b;
}
inline Bytes i32(std::int32_t v) {
  Bytes b;
  put_int(b, v);
  return b;
}
inline Bytes chr(char c) {
  Bytes b;
  put_char(b, c);
  return b;
}
inline Bytes cat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}
// Expects exactly `expected` next on `c` (compared as hex for readable failures).
inline void expect_bytes(Connection& c, const Bytes& expected) {
  EXPECT_EQ(hex(c.read_bytes(expected.size())), hex(expected));
}

// Fast options for tests: ephemeral loopback port, no pauses.
inline LegacyServerOptions test_options() {
  LegacyServerOptions o;
  o.address = "127.0.0.1";
  o.port = 0;
  o.ready_pause = std::chrono::milliseconds(0);
  o.cpu_delay = std::chrono::milliseconds(0);
  o.setup_timeout = std::chrono::milliseconds(20'000);
  o.play_timeout = std::chrono::milliseconds(20'000);
  return o;
}

// Waits (up to `limit`) until the server lists no game; returns whether it did.
// A new, empty dump directory `name` under the system's temporary directory (for
// LegacyServerOptions::dump_dir).
inline std::filesystem::path fresh_dump_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline bool wait_no_games(LegacyServer& server,
                          std::chrono::milliseconds limit = std::chrono::milliseconds(3000)) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (server.games().empty()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return server.games().empty();
}

// Whole contents of a plain or gzip-compressed file.
inline std::string read_gz(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) return {};
  std::string out;
  char buf[65536];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, n);
  gzclose(f);
  return out;
}

// The golden record `id` from tests/data/biloba/<file>.
inline nlohmann::json golden(const std::string& file, const std::string& id) {
  const std::string text = read_gz(std::string(PLATEAU_TEST_DATA) + "/biloba/" + file);
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) {
      auto rec = nlohmann::json::parse(text.substr(start, end - start));
      if (rec["id"] == id) return rec;
    }
    start = end + 1;
  }
  return {};
}

struct GoldenClick {
  int seat;
  int x;
  int y;
};
// Every click of a golden record in order.
inline std::vector<GoldenClick> golden_clicks(const nlohmann::json& rec) {
  std::vector<GoldenClick> out;
  for (const auto& turn : rec["turns"]) {
    for (const auto& c : turn["clicks"]) {
      const std::string s = c;
      const auto comma = s.find(',');
      out.push_back({turn["seat"].get<int>(), std::stoi(s.substr(0, comma)),
                     std::stoi(s.substr(comma + 1))});
    }
  }
  return out;
}

// A golden board string (81 cells, row-major) from a Position.
inline std::string board81(const Position& pos) {
  std::string s;
  for (int sq = 0; sq < kSquares; ++sq) {
    const auto c = pos.cell[sq];
    if (c == kWall) s += '#';
    else if (c == kEmpty) s += sq == kCentre ? '*' : '.';
    else s += "OBRG"[c];
  }
  return s;
}

}  // namespace plateau::biloba::net::testing
