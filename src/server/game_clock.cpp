#include "server/game_clock.h"

#include <stdexcept>

#include "core/text.h"

namespace plateau::server {

namespace {

constexpr std::int64_t kMaxSeconds = 365LL * 24 * 3600;

std::int64_t seconds(std::string_view text, std::int64_t min, std::int64_t max) {
  if (text.empty() || text.size() > 9) throw std::invalid_argument("bad number");
  std::int64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') throw std::invalid_argument("bad number");
    v = v * 10 + (c - '0');
  }
  if (v < min || v > max) throw std::invalid_argument("out of range");
  return v;
}

}  // namespace

std::string ClockSettings::to_string() const {
  switch (mode) {
    case Mode::kNone:
      return "none";
    case Mode::kPerMove:
      return "move:" + std::to_string(base_ms / 1000);
    case Mode::kFischer:
      return "fischer:" + std::to_string(base_ms / 1000) + "+" +
             std::to_string(increment_ms / 1000);
  }
  return "none";
}

ClockSettings parse_clock(std::string_view text) {
  const std::string t = to_lower(trim(text));
  ClockSettings c;
  try {
    if (t == "none" || t == "off") return c;
    if (starts_with(t, "move:")) {
      c.mode = ClockSettings::Mode::kPerMove;
      c.base_ms = seconds(std::string_view(t).substr(5), 1, kMaxSeconds) * 1000;
      return c;
    }
    if (starts_with(t, "fischer:")) {
      std::string_view rest = std::string_view(t).substr(8);
      std::size_t plus = rest.find('+');
      c.mode = ClockSettings::Mode::kFischer;
      c.base_ms = seconds(rest.substr(0, plus), 1, kMaxSeconds) * 1000;
      c.increment_ms =
          plus == std::string_view::npos ? 0 : seconds(rest.substr(plus + 1), 0, 86400) * 1000;
      return c;
    }
  } catch (const std::invalid_argument&) {
  }
  throw std::invalid_argument("bad clock '" + std::string(text) +
                              "': expected none, move:SECONDS or fischer:SECONDS+INCREMENT");
}

}  // namespace plateau::server
