// The owner cache of forwarding (src/server/lobby_forward_cache.h; docs/CLUSTER.md
// "Forwarding"): how long a board's owner is believed without reading the database again, and
// what makes the client's node read it again.
#include "server/lobby_forward_cache.h"

#include <gtest/gtest.h>

namespace plateau::server::forwarding {
namespace {

using Clock = OwnerCache::Clock;
using std::chrono::milliseconds;

OwnerCache::Owners owned_by(const std::string& node, const std::string& game = "bohnduell") {
  return {{game, store::NodeRow{node, node + ".example:8023", 8090, 1, 2}}};
}

TEST(OwnerCache, AnAnswerReadIsKeptTwoSecondsAMissOne) {
  OwnerCache cache;
  const auto t0 = Clock::now();
  EXPECT_FALSE(cache.find(101, t0));
  cache.remember(101, owned_by("a"), t0);
  cache.remember(102, {}, t0);
  ASSERT_TRUE(cache.find(101, t0 + milliseconds(1999)));
  EXPECT_EQ(cache.find(101, t0 + milliseconds(1999))->front().second.id, "a");
  EXPECT_FALSE(cache.find(101, t0 + milliseconds(2000)));
  ASSERT_TRUE(cache.find(102, t0 + milliseconds(999)));
  EXPECT_TRUE(cache.find(102, t0 + milliseconds(999))->empty());
  EXPECT_FALSE(cache.find(102, t0 + milliseconds(1000)));
}

TEST(OwnerCache, EachAnswerWithTheTableKeepsItTwoSecondsMore) {
  OwnerCache cache;
  const auto t0 = Clock::now();
  cache.remember(101, owned_by("a"), t0);
  for (int s = 1; s <= 10; ++s) {
    cache.answered(101, "a", true, t0 + milliseconds(1500 * s));
  }
  // 15 s after the read, 1.9 s after the last answer: still a's, no read.
  EXPECT_TRUE(cache.find(101, t0 + milliseconds(16900)));
  EXPECT_FALSE(cache.find(101, t0 + milliseconds(17000)));
  // Another node's answer, or one for a board with several games, proves nothing.
  cache.remember(103, owned_by("a"), t0);
  cache.answered(103, "b", true, t0 + milliseconds(1900));
  EXPECT_FALSE(cache.find(103, t0 + milliseconds(2000)));
  OwnerCache::Owners two = owned_by("a");
  two.push_back(owned_by("a", "phutball").front());
  cache.remember(104, two, t0);
  cache.answered(104, "a", true, t0 + milliseconds(1900));
  EXPECT_FALSE(cache.find(104, t0 + milliseconds(2000)));
}

TEST(OwnerCache, AnAnswerWithoutTheTableOrAnUnreachableOwnerDropsIt) {
  OwnerCache cache;
  const auto t0 = Clock::now();
  cache.remember(101, owned_by("a"), t0);
  cache.answered(101, "b", false, t0);  // not its owner here: nothing changes
  EXPECT_TRUE(cache.find(101, t0));
  cache.answered(101, "a", false, t0);  // a serves no board 101 any more
  EXPECT_FALSE(cache.find(101, t0));
  cache.remember(101, owned_by("c"), t0);
  cache.unreachable(101, "a");  // an old owner's failure: c stays
  EXPECT_EQ(cache.find(101, t0)->front().second.id, "c");
  cache.unreachable(101, "c");
  EXPECT_FALSE(cache.find(101, t0));
  EXPECT_EQ(cache.size(), 0u);
}

TEST(OwnerCache, IsBounded) {
  OwnerCache cache;
  const auto t0 = Clock::now();
  for (int n = 0; n < static_cast<int>(kMaxCached); ++n) cache.remember(n, owned_by("a"), t0);
  EXPECT_EQ(cache.size(), kMaxCached);
  cache.remember(7, owned_by("b"), t0);  // known already: no room needed
  EXPECT_EQ(cache.size(), kMaxCached);
  cache.remember(static_cast<int>(kMaxCached), owned_by("a"),
                 t0);  // one more: the cache starts again
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_TRUE(cache.find(static_cast<int>(kMaxCached), t0));
}

}  // namespace
}  // namespace plateau::server::forwarding
