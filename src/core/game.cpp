#include "core/game.h"

#include <algorithm>
#include <charconv>

namespace plateau {

int Game::first_seat(std::uint64_t random) const {
  const int n = num_seats();
  const std::string& option = info().seat_order_option;
  if (option.empty() || n <= 0) return 0;
  const std::string& value = options().get(option);
  if (value == "random") return static_cast<int>(random % static_cast<std::uint64_t>(n));
  int seat = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seat);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size()) return 0;
  return std::clamp(seat - 1, 0, n - 1);
}

}  // namespace plateau
