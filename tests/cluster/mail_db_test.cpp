// The SQL of mail on several nodes (src/cluster/mail_db.h) on the test PostgreSQL cluster
// (tests/store/pg_test_cluster.h): claims of the shared outbox (one node at a time, taken over
// after the lease or from a dead node, released, retried later), the digests assembled once
// from every live node's part, the account changes, the inbound mail already run. Skipped
// (saying why) only without the PostgreSQL server binaries when not root.
#include "cluster/mail_db.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "../store/pg_test_cluster.h"
#include "cluster/cluster_db.h"
#include "store/batch.h"
#include "store/postgres_backend.h"

namespace plateau::cluster {
namespace {

using store::testing::pg_reset;
using store::testing::pg_skip_reason;
using store::testing::pg_url;

class MailDbTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (pg_url().empty()) GTEST_SKIP() << pg_skip_reason();
    pg_reset();
    backend_ = std::make_unique<store::PostgresBackend>(pg_url());  // migrates
    db_ = std::make_unique<Connection>(pg_url());
    prepare_mail_tables(*db_);
    prepare_mail_tables(*db_);  // idempotent
    for (const char* id : {"a", "b"}) {
      db_->run(
          "INSERT INTO nodes(id, address, node_port, started_at, seen_at) VALUES ($1, "
          "'127.0.0.1:1', 1, 0, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)",
          store::pg::Params().text(id));
    }
  }
  void commit(const store::Batch& b) {
    const store::Batch* group[] = {&b};
    ASSERT_FALSE(backend_->commit_group(group, 1).batch_errors.at(0));
  }
  void add_mail(const std::string& key, std::int64_t created) {
    store::Batch b;
    b.add_mail({key, "bob@example.org", "Subject: " + key + "\r\n\r\nhi\r\n", created});
    commit(b);
  }
  static std::vector<std::string> keys(const std::vector<ClaimedMail>& claimed) {
    std::vector<std::string> out;
    for (const auto& c : claimed) out.push_back(c.row.key);
    return out;
  }
  std::int64_t count(const char* sql) { return db_->run(sql).integer(0, 0); }

  std::unique_ptr<store::PostgresBackend> backend_;
  std::unique_ptr<Connection> db_;
};

TEST_F(MailDbTest, ARowIsClaimedByOneNodeAtATimeOldestFirst) {
  add_mail("m3", 30);
  add_mail("m1", 10);
  add_mail("m2", 20);
  const auto a = claim_mail(*db_, "a", 2, 60000);
  EXPECT_EQ(keys(a), (std::vector<std::string>{"m1", "m2"}));
  EXPECT_EQ(a[0].row.recipient, "bob@example.org");
  EXPECT_EQ(a[0].row.message, "Subject: m1\r\n\r\nhi\r\n");
  EXPECT_EQ(a[0].row.created_ms, 10);
  EXPECT_EQ(a[0].attempts, 1);
  // b gets only what a does not hold; then nothing.
  EXPECT_EQ(keys(claim_mail(*db_, "b", 10, 60000)), (std::vector<std::string>{"m3"}));
  EXPECT_TRUE(claim_mail(*db_, "b", 10, 60000).empty());
  EXPECT_TRUE(claim_mail(*db_, "a", 10, 60000).empty());
  // Sent: the row and its claim go.
  finish_mail(*db_, "m1");
  EXPECT_EQ(count("SELECT count(*) FROM mail_outbox"), 2);
  EXPECT_EQ(count("SELECT count(*) FROM plateau_mail_claims"), 2);
  EXPECT_EQ(outbox_size(*db_), 2);
}

TEST_F(MailDbTest, MailSentIsCountedPerAddressForAnHour) {
  add_mail("m1", 1);
  add_mail("m2", 2);
  add_mail("m3", 3);
  finish_mail(*db_, "m1", "bob@example.org");
  finish_mail(*db_, "m2", "bob@example.org");
  finish_mail(*db_, "m3");  // refused for good: not counted
  EXPECT_EQ(sent_last_hour(*db_, "bob@example.org"), 2);
  EXPECT_EQ(sent_last_hour(*db_, "carol@example.org"), 0);
  EXPECT_EQ(outbox_size(*db_), 0);
  forget_sent(*db_);  // nothing an hour old yet
  EXPECT_EQ(sent_last_hour(*db_, "bob@example.org"), 2);
  db_->run("UPDATE plateau_mail_sent SET at_ms = at_ms - 3600000");
  EXPECT_EQ(sent_last_hour(*db_, "bob@example.org"), 0);
  forget_sent(*db_);
  EXPECT_EQ(count("SELECT count(*) FROM plateau_mail_sent"), 0);
}

TEST_F(MailDbTest, ClaimsRacingFromTwoConnectionsNeverShareARow) {
  for (int i = 0; i < 200; ++i) add_mail("m" + std::to_string(1000 + i), i);
  std::vector<std::string> got[2];
  std::vector<std::thread> threads;
  for (int n = 0; n < 2; ++n) {
    threads.emplace_back([&, n] {
      Connection db(pg_url());
      const std::string self = n == 0 ? "a" : "b";
      for (;;) {
        auto claimed = claim_mail(db, self, 3, 60000);
        if (claimed.empty()) break;
        for (auto& c : claimed) got[n].push_back(c.row.key);
      }
    });
  }
  for (auto& t : threads) t.join();
  std::set<std::string> all(got[0].begin(), got[0].end());
  all.insert(got[1].begin(), got[1].end());
  EXPECT_EQ(all.size(), 200u);
  EXPECT_EQ(got[0].size() + got[1].size(), 200u);  // no row twice
}

TEST_F(MailDbTest, AClaimIsTakenOverWhenItsLeaseRunsOutOrItsNodeIsGone) {
  add_mail("m1", 1);
  add_mail("m2", 2);
  ASSERT_EQ(claim_mail(*db_, "a", 1, 200).size(), 1u);     // m1, a short lease
  ASSERT_EQ(claim_mail(*db_, "b", 1, 600000).size(), 1u);  // m2, a long one
  EXPECT_TRUE(claim_mail(*db_, "a", 10, 600000).empty());
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  // m1's lease ran out: a claims it again (a second attempt); b's m2 stays b's.
  auto again = claim_mail(*db_, "a", 10, 600000);
  ASSERT_EQ(keys(again), (std::vector<std::string>{"m1"}));
  EXPECT_EQ(again[0].attempts, 2);
  // b is found dead (its node row goes with the takeover): its claim is free at once.
  db_->run("DELETE FROM nodes WHERE id = 'b'");
  EXPECT_EQ(keys(claim_mail(*db_, "a", 10, 600000)), (std::vector<std::string>{"m2"}));
  // b wakes up (it was frozen) with m2 in hand: it is not b's to send any more.
  EXPECT_FALSE(renew_claim(*db_, "b", "m2", 600000));
  EXPECT_TRUE(renew_claim(*db_, "a", "m2", 600000));
}

TEST_F(MailDbTest, ARetryWaitsItsDelayAndReleasedClaimsAreFreeAtOnce) {
  add_mail("m1", 1);
  add_mail("m2", 2);
  ASSERT_EQ(claim_mail(*db_, "a", 10, 600000).size(), 2u);
  retry_mail(*db_, "a", "m1", 400);
  retry_mail(*db_, "b", "m2", 0);  // not b's claim: no change
  EXPECT_TRUE(claim_mail(*db_, "b", 10, 600000).empty());
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(keys(claim_mail(*db_, "b", 10, 600000)), (std::vector<std::string>{"m1"}));
  EXPECT_TRUE(renew_claim(*db_, "a", "m2", 600000));
  EXPECT_FALSE(renew_claim(*db_, "b", "m2", 600000));  // a's
  EXPECT_EQ(release_claims(*db_, "a"), 1);             // m2
  EXPECT_FALSE(renew_claim(*db_, "a", "m2", 600000));  // free now
  EXPECT_EQ(release_claims(*db_, "a"), 0);
  const auto freed = claim_mail(*db_, "b", 10, 600000);
  ASSERT_EQ(keys(freed), (std::vector<std::string>{"m2"}));
  EXPECT_EQ(freed[0].attempts, 2);
}

TEST_F(MailDbTest, DigestsAreAssembledOnceWhenEveryLiveNodeWroteItsPart) {
  store::Batch b;
  b.add_account({"Bob", "hash", 1, -1, "bob@example.org", "digest"});
  b.add_account({"carol", "hash", 1, -1, "carol@example.org", "every"});
  b.add_account({"gone", "", 1, -1, "gone@example.org", "digest"});  // closed
  b.add_mail({"digest.20000 bob", "bob@example.org", "already", 5});
  commit(b);
  int composed = 0;
  std::vector<std::string> seen_parts;
  std::vector<std::string> seen_readers;
  auto compose = [&](const std::vector<std::string>& parts,
                     const std::vector<DigestReader>& readers) {
    ++composed;
    seen_parts = parts;
    seen_readers.clear();
    for (const auto& r : readers) seen_readers.push_back(r.name + " " + r.email);
    return std::vector<store::MailRow>{{"digest.20000 bob", "bob@example.org", "new", 6},
                                       {"digest.20000 x", "x@example.org", "x", 6}};
  };
  EXPECT_EQ(digest_day(*db_), 0);
  put_digest_part(*db_, 20000, "a", "{\"a\":1}");
  EXPECT_FALSE(assemble_digests(*db_, 20000, 60000, compose));  // b's part is missing
  EXPECT_EQ(composed, 0);
  put_digest_part(*db_, 20000, "b", "{\"b\":1}");
  EXPECT_TRUE(assemble_digests(*db_, 20000, 60000, compose));
  EXPECT_EQ(composed, 1);
  EXPECT_EQ(seen_parts, (std::vector<std::string>{"{\"a\":1}", "{\"b\":1}"}));
  EXPECT_EQ(seen_readers, (std::vector<std::string>{"Bob bob@example.org"}));
  EXPECT_EQ(digest_day(*db_), 20000);
  // A key already in the outbox is left as it was; the parts are gone.
  EXPECT_EQ(db_->run("SELECT message FROM mail_outbox WHERE key = 'digest.20000 bob'").text(0, 0),
            "already");
  EXPECT_EQ(count("SELECT count(*) FROM mail_outbox"), 2);
  EXPECT_EQ(count("SELECT count(*) FROM plateau_digest_parts"), 0);
  // The day again (another node's tick): done, nothing composed.
  put_digest_part(*db_, 20000, "b", "{}");
  EXPECT_TRUE(assemble_digests(*db_, 20000, 60000, compose));
  EXPECT_EQ(composed, 1);
  // A node not seen within alive_ms is not waited for.
  db_->run("UPDATE nodes SET seen_at = 0 WHERE id = 'b'");
  put_digest_part(*db_, 20001, "a", "{}");
  EXPECT_TRUE(assemble_digests(*db_, 20001, 60000, compose));
  EXPECT_EQ(composed, 2);
}

TEST_F(MailDbTest, AccountChangesAndMailRunAreReadFromTheDatabase) {
  const std::int64_t before = changed_accounts(*db_, 0).now_ms;
  EXPECT_TRUE(changed_accounts(*db_, 0).rows.empty());
  store::Batch b;
  b.add_account({"Bob", "h1", 1, -1, "bob@example.org", "every"});
  commit(b);
  store::Batch c;
  c.put_account({"bob", "h2", 1, 3, "bob@example.net", "off"});
  c.put_mail_seen({"alice@example.org", "<1@example.org>", 7});
  commit(c);
  const auto changes = changed_accounts(*db_, before);
  ASSERT_EQ(changes.rows.size(), 1u);
  EXPECT_EQ(changes.rows[0], (store::AccountRow{"bob", "h2", 1, 3, "bob@example.net", "off"}));
  EXPECT_GE(changes.now_ms, before);
  EXPECT_TRUE(changed_accounts(*db_, changes.now_ms + 1000).rows.empty());
  EXPECT_TRUE(mail_seen(*db_, "alice@example.org", "<1@example.org>"));
  EXPECT_FALSE(mail_seen(*db_, "alice@example.org", "<2@example.org>"));
}

}  // namespace
}  // namespace plateau::cluster
