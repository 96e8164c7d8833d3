// The inbound mail already run (mail_dedup.h, issue 15 a) and the mail signup's one-row account
// (issue 15 f), with exact values.
#include "server/mail_dedup.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <future>

#include "server/accounts.h"
#include "store/backend.h"

namespace plateau::server {
namespace {

class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() /
            ("plateau-mail-dedup-test-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::filesystem::path db() const { return path_ / "plateau.db"; }

 private:
  std::filesystem::path path_;
};

std::string record(MailDedup& d, const std::string& sender, const std::string& id,
                   std::int64_t now) {
  std::promise<std::string> p;
  d.done_with(sender, id, now, [&](std::string e) { p.set_value(e); });
  return p.get_future().get();
}

constexpr std::int64_t kDay = 24LL * 3600 * 1000;

TEST(MailDedup, AMailRunsOnceEvenAfterARestart) {
  TempDir dir;
  const std::int64_t t0 = 1796212800000;
  {
    store::Store store(dir.db());
    store.load();
    MailDedup d(store);
    EXPECT_EQ(d.claim("Bob@Example.org", "m1@x"), MailDedup::Claim::kRun);
    // The same mail again while it runs (the mail server retried at once): try later.
    EXPECT_EQ(d.claim("bob@example.org", "m1@x"), MailDedup::Claim::kRunning);
    EXPECT_EQ(record(d, "Bob@Example.org", "m1@x", t0), "");
    EXPECT_EQ(d.claim("bob@example.org", "m1@x"), MailDedup::Claim::kDone);
    // Another sender's mail with the same Message-ID is another mail.
    EXPECT_EQ(d.claim("eve@example.org", "m1@x"), MailDedup::Claim::kRun);
    d.release("eve@example.org", "m1@x");  // a 451: it will come again and run then
    EXPECT_EQ(d.claim("eve@example.org", "m1@x"), MailDedup::Claim::kRun);
    EXPECT_EQ(d.claim("bob@example.org", ""), MailDedup::Claim::kUnknown);
    EXPECT_EQ(d.size(), 1u);
  }
  store::Store store(dir.db());
  const store::Snapshot snap = store.load();
  ASSERT_EQ(snap.mail_seen.size(), 1u);
  EXPECT_EQ(snap.mail_seen[0], (store::MailSeenRow{"bob@example.org", "m1@x", t0}));
  MailDedup d(store);
  d.restore(snap.mail_seen, t0 + kDay);
  EXPECT_EQ(d.claim("bob@example.org", "m1@x"), MailDedup::Claim::kDone);
  // 30 days later it is forgotten (TheStoreForgetsWhatIsTooOld: in the store too).
  MailDedup later(store);
  later.restore(snap.mail_seen, t0 + 31 * kDay);
  EXPECT_EQ(later.size(), 0u);
}

TEST(MailDedup, TheStoreForgetsWhatIsTooOld) {
  TempDir dir;
  const std::int64_t t0 = 1796212800000;
  {
    store::Store store(dir.db());
    store.load();
    MailDedup d(store);
    ASSERT_EQ(d.claim("a@b.c", "1@x"), MailDedup::Claim::kRun);
    EXPECT_EQ(record(d, "a@b.c", "1@x", t0), "");
    ASSERT_EQ(d.claim("a@b.c", "2@x"), MailDedup::Claim::kRun);
    EXPECT_EQ(record(d, "a@b.c", "2@x", t0 + 31 * kDay), "");
  }
  store::Store store(dir.db());
  const store::Snapshot snap = store.load();
  ASSERT_EQ(snap.mail_seen.size(), 1u);
  EXPECT_EQ(snap.mail_seen[0].message_id, "2@x");
}

// A backend whose every commit fails, recording what it was asked to write.
class FailingBackend : public store::Backend {
 public:
  explicit FailingBackend(std::vector<store::Op>* seen) : seen_(seen) {}
  store::Snapshot load(std::size_t) override { return {}; }
  store::GroupOutcome commit_group(std::span<const store::Batch* const> batches,
                                   std::int64_t) override {
    store::GroupOutcome out;
    for (const auto* b : batches) {
      for (const auto& op : b->ops()) seen_->push_back(op);
    }
    out.batch_errors.resize(batches.size());
    if (!batches.empty()) out.commit_error = std::make_exception_ptr(std::runtime_error("disk full"));
    return out;
  }
  int schema_version() const override { return 9; }

 private:
  std::vector<store::Op>* seen_;
};

// Issue 15 f: the account and its address are one row; a store failure leaves no account (it
// was: the account stored, then its address failed, an account nobody could reach by mail).
TEST(MailSignup, TheAccountAndItsAddressAreStoredTogetherOrNotAtAll) {
  std::vector<store::Op> seen;
  store::Store store(std::make_unique<FailingBackend>(&seen), 60000);
  boost::asio::thread_pool hashing(1);
  Accounts accounts(store, hashing, LobbyLimits{});
  std::promise<std::pair<std::string, std::string>> p;
  accounts.register_account(
      "alice", "pw-alice-1", [&](std::string u, std::string e) { p.set_value({u, e}); },
      "alice@example.org");
  EXPECT_EQ(p.get_future().get(), (std::pair<std::string, std::string>{"", "could not store the account"}));
  EXPECT_FALSE(accounts.exists("alice"));
  EXPECT_EQ(accounts.email_of("alice"), "");
  ASSERT_EQ(seen.size(), 1u);
  const auto& row = std::get<store::AddAccount>(seen[0]).row;  // a registration inserts
  EXPECT_EQ(row.name, "alice");
  EXPECT_EQ(row.email, "alice@example.org");
  hashing.join();
}

}  // namespace
}  // namespace plateau::server
