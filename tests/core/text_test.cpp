#include <gtest/gtest.h>

#include "core/random.h"
#include "core/text.h"

namespace plateau {
namespace {

TEST(Text, TrimSplitJoin) {
  EXPECT_EQ(trim("  a b \t\n"), "a b");
  EXPECT_EQ(trim(""), "");
  EXPECT_EQ(split("a,,b", ','), (std::vector<std::string_view>{"a", "", "b"}));
  EXPECT_EQ(split("", ','), (std::vector<std::string_view>{""}));
  EXPECT_EQ(split_ws("  a  b\tc \n"), (std::vector<std::string_view>{"a", "b", "c"}));
  EXPECT_EQ(join({"x", "y", "z"}, ", "), "x, y, z");
  EXPECT_EQ(to_upper("h10-h13"), "H10-H13");
  EXPECT_EQ(to_lower("E7-E6"), "e7-e6");
}

// The generator must give the same numbers on every machine: records of bot games and
// reproducible matches depend on it.
TEST(Random, SequenceIsFixedForASeed) {
  Rng rng(42);
  const std::uint64_t first = rng.next();
  Rng again(42);
  EXPECT_EQ(again.next(), first);
  std::uint64_t state = 0;
  EXPECT_EQ(splitmix64(state), 0xE220A8397B1DCDAFull);
  Rng bounded(7);
  for (int i = 0; i < 1000; ++i) EXPECT_LT(bounded.below(3), 3u);
}

}  // namespace
}  // namespace plateau
