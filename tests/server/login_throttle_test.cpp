#include "server/login_throttle.h"

#include <gtest/gtest.h>

namespace plateau::server {
namespace {

using std::chrono::milliseconds;
using Outcome = LoginThrottle::Outcome;

class LoginThrottleTest : public ::testing::Test {
 protected:
  LoginThrottle throttle_{milliseconds(1000), milliseconds(8000), 100};
  LoginThrottle::Clock::time_point t0_ = LoginThrottle::Clock::now();
  LoginThrottle::Clock::time_point at(int ms) const { return t0_ + milliseconds(ms); }

  // One attempt that gets through and fails at `ms`.
  void fail(const char* name, const char* address, int ms) {
    ASSERT_FALSE(throttle_.begin(name, address, at(ms)).has_value());
    throttle_.end(name, address, Outcome::kFailure, at(ms));
  }
};

TEST_F(LoginThrottleTest, WaitsDoubleFromTheBaseUpToTheCap) {
  EXPECT_EQ(throttle_.backoff(0), milliseconds(0));
  EXPECT_EQ(throttle_.backoff(1), milliseconds(1000));
  EXPECT_EQ(throttle_.backoff(2), milliseconds(2000));
  EXPECT_EQ(throttle_.backoff(4), milliseconds(8000));
  EXPECT_EQ(throttle_.backoff(5), milliseconds(8000));
  EXPECT_EQ(throttle_.backoff(1000000), milliseconds(8000));
}

TEST_F(LoginThrottleTest, AnAttemptDuringTheBackOffIsRefusedWithTheTimeLeft) {
  fail("alice", "10.0.0.1", 0);
  auto r = throttle_.begin("Alice", "10.0.0.2", at(400));  // any case, any address
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->by_account);
  EXPECT_EQ(r->wait, milliseconds(600));
  // The refusal changed nothing: the wait is over at 1000.
  EXPECT_FALSE(throttle_.begin("alice", "10.0.0.2", at(1000)).has_value());
  throttle_.end("alice", "10.0.0.2", Outcome::kFailure, at(1000));
  r = throttle_.begin("alice", "10.0.0.3", at(1001));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->wait, milliseconds(1999));  // the second failure waits 2 s
}

TEST_F(LoginThrottleTest, ASuccessResetsTheAccountButNotTheAddress) {
  fail("alice", "10.0.0.1", 0);
  ASSERT_FALSE(throttle_.begin("alice", "10.0.0.1", at(1000)).has_value());
  throttle_.end("alice", "10.0.0.1", Outcome::kSuccess, at(1000));
  // The account starts again from zero, from another address.
  fail("alice", "10.0.0.9", 1001);
  auto r = throttle_.begin("alice", "10.0.0.8", at(1002));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->wait, milliseconds(999));
  // 10.0.0.1 still has its failure: at 1500 it is free (1 s after 0), its next one waits 2 s.
  fail("bob", "10.0.0.1", 1500);
  r = throttle_.begin("carol", "10.0.0.1", at(1501));
  ASSERT_TRUE(r.has_value());
  EXPECT_FALSE(r->by_account);
  EXPECT_EQ(r->wait, milliseconds(1999));
}

TEST_F(LoginThrottleTest, AnAddressBacksOffAcrossAccounts) {
  fail("alice", "10.0.0.1", 0);
  auto r = throttle_.begin("bob", "10.0.0.1", at(10));
  ASSERT_TRUE(r.has_value());
  EXPECT_FALSE(r->by_account);
  EXPECT_EQ(r->wait, milliseconds(990));
  EXPECT_FALSE(throttle_.begin("bob", "10.0.0.2", at(10)).has_value());
}

TEST_F(LoginThrottleTest, ABurstAfterAFailureGetsOneAttemptAtATime) {
  fail("alice", "10.0.0.1", 0);
  ASSERT_FALSE(throttle_.begin("alice", "10.0.0.2", at(1000)).has_value());
  // While that attempt is being checked, the others wait for its verdict.
  auto r = throttle_.begin("alice", "10.0.0.3", at(1001));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->wait, milliseconds(2000));
  throttle_.end("alice", "10.0.0.2", Outcome::kCancelled, at(1002));  // e.g. server busy
  EXPECT_FALSE(throttle_.begin("alice", "10.0.0.3", at(1003)).has_value());
}

TEST_F(LoginThrottleTest, ForgetsLapsedKeysAndStaysBounded) {
  fail("alice", "10.0.0.1", 0);
  EXPECT_EQ(throttle_.size(), 2u);
  // A success with no failure leaves nothing behind.
  ASSERT_FALSE(throttle_.begin("bob", "10.0.0.2", at(0)).has_value());
  throttle_.end("bob", "10.0.0.2", Outcome::kSuccess, at(0));
  EXPECT_EQ(throttle_.size(), 2u);
  // Lapsed for `max` (8 s) after the 1 s wait: forgotten, and the count starts again.
  ASSERT_FALSE(throttle_.begin("carol", "10.0.0.3", at(9000)).has_value());
  throttle_.end("carol", "10.0.0.3", Outcome::kSuccess, at(9000));
  EXPECT_EQ(throttle_.size(), 0u);

  LoginThrottle small(milliseconds(1000), milliseconds(8000), 3);
  for (int i = 0; i < 50; ++i) {
    const std::string name = "user" + std::to_string(i);
    const std::string address = "10.1.0." + std::to_string(i);
    ASSERT_FALSE(small.begin(name, address, at(i)).has_value());
    small.end(name, address, Outcome::kFailure, at(i));
  }
  EXPECT_EQ(small.size(), 6u);  // 3 names and 3 addresses: the most recent failures
  EXPECT_TRUE(small.begin("user49", "10.9.9.9", at(60)).has_value());
  EXPECT_FALSE(small.begin("user0", "10.9.9.8", at(60)).has_value());
}

}  // namespace
}  // namespace plateau::server
