// ResumeTokens (issue 13, item 6): the token's form, expiry that slides with use, the bounds
// per user and in all, revocation, the sweep, and what the store keeps (hashes only).
#include "server/resume_tokens.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <future>

namespace plateau::server {
namespace {

constexpr std::int64_t kT0 = 1'000'000;

class ResumeTokensTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("plateau-resume-tokens-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    limits_.token_ttl = std::chrono::seconds(100);
    limits_.guest_token_ttl = std::chrono::seconds(10);
    limits_.max_tokens_per_user = 2;
    limits_.max_tokens = 2;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  static std::string issue(ResumeTokens& tokens, const std::string& user, bool guest,
                           std::int64_t now) {
    std::promise<std::string> result;
    tokens.issue(user, guest, now,
                 [&](std::string token, std::string) { result.set_value(token); });
    return result.get_future().get();
  }

  std::filesystem::path dir_;
  LobbyLimits limits_;
};

TEST_F(ResumeTokensTest, ResumesTheUserUntilItExpiresAndSlidesWithUse) {
  store::Store store(dir_ / "plateau.db");
  ResumeTokens tokens(store, limits_);
  tokens.restore(store.load().tokens, kT0);
  const std::string t = issue(tokens, "Alice", false, kT0);
  ASSERT_EQ(t.size(), ResumeTokens::kTokenChars);
  EXPECT_EQ(t.find_first_not_of(
                "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
            std::string::npos);
  auto id = tokens.resume(t, kT0 + 99'999);
  ASSERT_TRUE(id);
  EXPECT_EQ(id->user, "Alice");
  EXPECT_FALSE(id->guest);
  // That use renewed it: valid until 99.999 s + 100 s.
  EXPECT_TRUE(tokens.resume(t, kT0 + 199'998));
  EXPECT_TRUE(tokens.holds_valid("alice", kT0 + 199'998 + 99'999));
  EXPECT_FALSE(tokens.resume(t, kT0 + 199'998 + 100'000));
  // One character changed: refused.
  std::string other = t;
  other[20] = other[20] == 'A' ? 'B' : 'A';
  EXPECT_FALSE(tokens.resume(other, kT0));
  EXPECT_FALSE(tokens.resume(t.substr(1), kT0));
  EXPECT_FALSE(tokens.resume("", kT0));
}

TEST_F(ResumeTokensTest, BoundedPerUserAndInAllRevocableAndSwept) {
  store::Store store(dir_ / "plateau.db");
  ResumeTokens tokens(store, limits_);
  const std::string a1 = issue(tokens, "alice", false, kT0);
  const std::string a2 = issue(tokens, "alice", false, kT0 + 1);
  const std::string a3 = issue(tokens, "ALICE", false, kT0 + 2);  // revokes a1
  EXPECT_FALSE(tokens.resume(a1, kT0 + 3));
  EXPECT_TRUE(tokens.resume(a2, kT0 + 3));
  EXPECT_TRUE(tokens.resume(a3, kT0 + 3));
  // 2 in all: the one expiring first goes (a2 and a3 were both renewed at kT0 + 3, so one of
  // them, whichever sorts first).
  const std::string g = issue(tokens, "guest4", true, kT0 + 4);
  EXPECT_EQ(tokens.size(), 2u);
  EXPECT_EQ(int(bool(tokens.resume(a2, kT0 + 5))) + int(bool(tokens.resume(a3, kT0 + 5))), 1);
  auto id = tokens.resume(g, kT0 + 5);
  ASSERT_TRUE(id);
  EXPECT_TRUE(id->guest);
  // The sweep: an online user's token is renewed, an offline guest's goes and is reported.
  auto online = [](const std::string&) { return false; };
  EXPECT_EQ(tokens.sweep(kT0 + 5 + 9'999, online), std::vector<std::string>{});
  EXPECT_EQ(tokens.sweep(kT0 + 5 + 10'000, online), std::vector<std::string>{"guest4"});
  EXPECT_FALSE(tokens.holds_valid("guest4", kT0 + 5));
  tokens.revoke(id->selector);  // already gone: nothing happens
  const std::string g2 = issue(tokens, "guest5", true, kT0);
  EXPECT_EQ(tokens.sweep(kT0 + 20'000, [](const std::string& u) { return u == "guest5"; }),
            std::vector<std::string>{});
  EXPECT_TRUE(tokens.holds_valid("guest5", kT0 + 20'000 + 9'999));
  auto g2id = tokens.resume(g2, kT0 + 20'001);
  ASSERT_TRUE(g2id);
  tokens.revoke(g2id->selector);
  EXPECT_FALSE(tokens.resume(g2, kT0 + 20'002));
}

TEST_F(ResumeTokensTest, SurvivesARestartAsHashesAndExpiredOnesAreDeleted) {
  const auto path = dir_ / "plateau.db";
  std::string t;
  std::string guest;
  {
    store::Store store(path);
    ResumeTokens tokens(store, limits_);
    t = issue(tokens, "alice", false, kT0);
    guest = issue(tokens, "guest1", true, kT0);
    store.flush();
  }
  store::Store store(path);
  const auto rows = store.load().tokens;
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& r : rows) {
    EXPECT_EQ(r.selector.size(), 16u);
    EXPECT_EQ(r.verifier_hash.size(), 64u);
    EXPECT_EQ(t.find(r.verifier_hash), std::string::npos);
  }
  ResumeTokens tokens(store, limits_);
  tokens.restore(rows, kT0 + 10'000);  // the guest's token expired while the server was down
  EXPECT_EQ(tokens.size(), 1u);
  EXPECT_TRUE(tokens.resume(t, kT0 + 10'000));
  EXPECT_FALSE(tokens.resume(guest, kT0 + 10'000));
  store.flush();
  EXPECT_EQ(store.load().tokens.size(), 1u);
}

}  // namespace
}  // namespace plateau::server
