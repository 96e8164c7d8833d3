#include "server/wall_clock.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>

namespace plateau::server {

namespace {
std::atomic<std::int64_t> offset_ms{0};
constexpr std::int64_t kMaxOffsetMs = 10LL * 366 * 24 * 60 * 60 * 1000;
}  // namespace

std::int64_t system_clock_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::int64_t wall_clock_ms() { return system_clock_ms() + offset_ms.load(std::memory_order_relaxed); }

void set_wall_clock_offset_ms(std::int64_t ms) { offset_ms.store(ms, std::memory_order_relaxed); }

std::optional<std::int64_t> read_clock_offset_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  char buf[65] = {};
  in.read(buf, 64);
  std::string text(buf, static_cast<std::size_t>(in.gcount()));
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return std::nullopt;
  text = text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
  std::size_t i = text[0] == '-' ? 1 : 0;
  if (i == text.size() || text.size() - i > 15) return std::nullopt;
  for (std::size_t k = i; k < text.size(); ++k) {
    if (text[k] < '0' || text[k] > '9') return std::nullopt;
  }
  const std::int64_t v = std::strtoll(text.c_str(), nullptr, 10);
  if (v > kMaxOffsetMs || v < -kMaxOffsetMs) return std::nullopt;
  return v;
}

}  // namespace plateau::server
