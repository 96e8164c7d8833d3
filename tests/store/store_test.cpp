#include "store/store.h"

#include "store/migrations.h"
#include "store_backends.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <thread>

namespace plateau::store {
namespace {

// The Store over each backend (store_backends.h).
class StoreTest : public testing::BackendTest {
 protected:
  // Submits and waits; returns the error text ("" on success).
  static std::string write(Store& store, Batch batch) {
    std::promise<std::string> result;
    store.submit(std::move(batch), [&](std::exception_ptr e) {
      if (!e) return result.set_value("");
      try {
        std::rethrow_exception(e);
      } catch (const std::exception& ex) {
        result.set_value(ex.what());
      }
    });
    return result.get_future().get();
  }
};
PLATEAU_ALL_BACKENDS(StoreTest);

TEST_P(StoreTest, NewDatabaseIsMigratedDurably) {
  Store store(open_backend());
  EXPECT_EQ(store.schema_version(), static_cast<int>(migrations().size()));
  EXPECT_EQ(postgres_migrations().size(), migrations().size());  // one list per backend
  if (postgres()) {
    pg::Connection db(url());
    EXPECT_EQ(db.run("SELECT version FROM plateau_schema").integer(0, 0),
              static_cast<std::int64_t>(migrations().size()));
  } else {
    SQLite::Database db(path_.string());
    EXPECT_EQ(db.execAndGet("PRAGMA journal_mode").getString(), "wal");
  }
  Snapshot snap = store.load();
  EXPECT_TRUE(snap.accounts.empty());
  EXPECT_TRUE(snap.tables.empty());
}

TEST_P(StoreTest, EverythingWrittenIsReadBackAfterReopening) {
  {
    Store store(open_backend());
    store.load();
    Batch b;
    b.put_account({"alice", "$argon2id$x", 1000});
    b.put_rating({"phutball", "alice", 1612.5, 180.25, 0.06, 1});
    b.put_table({7, "phutball", 101, R"({"status":"playing"})", 2000});
    b.add_move({7, 1, "H11", 0, false, 3000});
    b.add_move({7, 2, "J12", 1, true, 4000});
    b.add_chat({7, 3500, "bob", "hello"});
    EXPECT_EQ(write(store, std::move(b)), "");
    Batch update;
    update.put_table({7, "phutball", 101, R"({"status":"over"})", 2000});
    EXPECT_EQ(write(store, std::move(update)), "");
  }
  Store store(open_backend());
  Snapshot snap = store.load();
  ASSERT_EQ(snap.accounts.size(), 1u);
  EXPECT_EQ(snap.accounts[0].name, "alice");
  EXPECT_EQ(snap.accounts[0].password_hash, "$argon2id$x");
  ASSERT_EQ(snap.ratings.size(), 1u);
  EXPECT_EQ(snap.ratings[0].rating, 1612.5);
  EXPECT_EQ(snap.ratings[0].deviation, 180.25);
  ASSERT_EQ(snap.tables.size(), 1u);
  EXPECT_EQ(snap.tables[0].data, R"({"status":"over"})");
  EXPECT_EQ(snap.tables[0].created_ms, 2000);
  ASSERT_EQ(snap.moves[7].size(), 2u);
  EXPECT_EQ(snap.moves[7][1].move, "J12");
  EXPECT_TRUE(snap.moves[7][1].automatic);
  EXPECT_EQ(snap.moves[7][1].seat, 1);
  ASSERT_EQ(snap.chat[7].size(), 1u);
  EXPECT_EQ(snap.chat[7][0].text, "hello");
}

TEST_P(StoreTest, ADuplicateMoveFailsItsBatchOnlyAndChangesNothing) {
  Store store(open_backend());
  store.load();
  Batch first;
  first.put_table({1, "bohnduell", 101, "{}", 1});
  first.add_move({1, 1, "S4", 0, false, 1});
  EXPECT_EQ(write(store, std::move(first)), "");
  // Both batches go to the writer together; the bad one is rolled back alone.
  std::promise<bool> bad_failed;
  std::promise<bool> good_ok;
  Batch bad;
  bad.add_chat({1, 2, "x", "written before the failure, rolled back with it"});
  bad.add_move({1, 1, "S3", 0, false, 2});
  Batch good;
  good.add_move({1, 2, "S1", 1, false, 3});
  store.submit(std::move(bad), [&](std::exception_ptr e) { bad_failed.set_value(e != nullptr); });
  store.submit(std::move(good), [&](std::exception_ptr e) { good_ok.set_value(e == nullptr); });
  EXPECT_TRUE(bad_failed.get_future().get());
  EXPECT_TRUE(good_ok.get_future().get());
  Snapshot snap = store.load();
  ASSERT_EQ(snap.moves[1].size(), 2u);
  EXPECT_EQ(snap.moves[1][0].move, "S4");
  EXPECT_EQ(snap.moves[1][1].move, "S1");
  EXPECT_TRUE(snap.chat[1].empty());
}

TEST_P(StoreTest, UndoDeletesTheLastMoves) {
  Store store(open_backend());
  store.load();
  Batch b;
  b.put_table({1, "bohnduell", 101, "{}", 1});
  for (int ply = 1; ply <= 4; ++ply) b.add_move({1, ply, "S4", ply % 2, false, ply});
  EXPECT_EQ(write(store, std::move(b)), "");
  Batch undo;
  undo.delete_moves_from(1, 4);
  EXPECT_EQ(write(store, std::move(undo)), "");
  EXPECT_EQ(store.load().moves[1].size(), 3u);
}

TEST_P(StoreTest, ConcurrentBatchesShareCommits) {
  Store store(open_backend());
  store.load();
  Batch t;
  t.put_table({1, "bohnduell", 101, "{}", 1});
  EXPECT_EQ(write(store, std::move(t)), "");
  const StoreStats before = store.stats();
  // Hold the writer inside the first batch's callback while the others queue up behind it.
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  Batch first;
  first.add_move({1, 1, "S4", 0, false, 1});
  store.submit(std::move(first), [released](std::exception_ptr) { released.wait(); });
  constexpr int kMoves = 200;
  for (int ply = 2; ply <= kMoves; ++ply) {
    Batch b;
    b.add_move({1, ply, "S4", 0, false, ply});
    store.submit(std::move(b), nullptr);
  }
  release.set_value();
  store.flush();
  const StoreStats after = store.stats();
  EXPECT_EQ(after.batches - before.batches, static_cast<std::uint64_t>(kMoves));
  // At most one commit for the first batch and one for the 199 that waited behind it.
  EXPECT_LE(after.commits - before.commits, 2u);
  EXPECT_EQ(store.load().moves[1].size(), static_cast<std::size_t>(kMoves));
}

// A server stops by flushing the store and then destroying its I/O: whatever a callback holds
// (a connection) must be released before flush() returns, not later on the writer thread.
TEST_P(StoreTest, FlushReturnsAfterTheCallbacksAreDestroyed) {
  Store store(open_backend());
  store.load();
  std::atomic<bool> destroyed{false};
  // Its destructor takes a while, so a writer that drops the callback after flush() returned
  // would be caught in the act.
  struct SlowToDestroy {
    explicit SlowToDestroy(std::atomic<bool>* f) : flag(f) {}
    std::atomic<bool>* flag;
    ~SlowToDestroy() {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      flag->store(true);
    }
  };
  auto held = std::make_shared<SlowToDestroy>(&destroyed);
  Batch b;
  b.put_table({1, "bohnduell", 101, "{}", 1});
  store.submit(std::move(b), [held](std::exception_ptr) {});
  held.reset();
  store.flush();
  EXPECT_TRUE(destroyed.load());
}

TEST_P(StoreTest, KnowsWhenItWasLastAliveAfterARestart) {
  auto now = [] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  };
  {
    Store store(open_backend(), 50);
    EXPECT_EQ(store.load().alive_ms, 0);  // a new store: never alive before
  }
  std::int64_t before = 0;
  {
    Store store(open_backend(), 50);
    EXPECT_GT(store.load().alive_ms, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // a few heartbeats
    before = now();
  }  // stops: one last heartbeat
  const std::int64_t after = now();
  Store store(open_backend(), 50);
  const std::int64_t alive = store.load().alive_ms;
  EXPECT_GE(alive, before);
  EXPECT_LE(alive, after);
}

TEST_P(StoreTest, AForeignKeyFailureFailsItsBatchAndTheWriterGoesOn) {
  Store store(open_backend());
  store.load();
  Batch orphan;
  orphan.add_chat({42, 1, "alice", "no such table"});
  EXPECT_EQ(write(store, std::move(orphan)),
            expected("FOREIGN KEY constraint failed",
                     "insert or update on table \"chat\" violates foreign key constraint "
                     "\"chat_table_id_fkey\""));
  Batch good;
  good.put_table({1, "bohnduell", 101, "{}", 1});
  good.add_chat({1, 2, "alice", "hi"});
  EXPECT_EQ(write(store, std::move(good)), "");
  // A callback that throws does not stop the writer either.
  Batch again;
  again.add_chat({1, 3, "bob", "hello"});
  store.submit(std::move(again), [](std::exception_ptr) { throw std::runtime_error("boom"); });
  store.flush();
  Batch last;
  last.add_chat({1, 4, "alice", "still here"});
  EXPECT_EQ(write(store, std::move(last)), "");
}

TEST_P(StoreTest, CountersOnlyGoUpAndSurviveReopening) {
  {
    Store store(open_backend());
    EXPECT_TRUE(store.load().counters.empty());
    Batch b;
    b.put_counter("guest", 65);
    EXPECT_EQ(write(store, std::move(b)), "");
    Batch lower;
    lower.put_counter("guest", 12);  // a late, smaller value never takes a counter back
    EXPECT_EQ(write(store, std::move(lower)), "");
  }
  Store store(open_backend());
  EXPECT_EQ(store.load().counters, (std::map<std::string, std::int64_t>{{"guest", 65}}));
}

TEST_P(StoreTest, TheChallengeLimitIsKeptWithTheAccount) {
  {
    Store store(open_backend());
    store.load();
    Batch b;
    b.put_account({"alice", "$argon2id$x", 1000, 0});
    b.put_account({"bob", "$argon2id$y", 1000, 3});
    b.put_account({"carol", "$argon2id$z", 1000});
    EXPECT_EQ(write(store, std::move(b)), "");
  }
  Store store(open_backend());
  Snapshot snap = store.load();
  ASSERT_EQ(snap.accounts.size(), 3u);
  EXPECT_EQ(snap.accounts[0].challenge_limit, 0);
  EXPECT_EQ(snap.accounts[1].challenge_limit, 3);
  EXPECT_EQ(snap.accounts[2].challenge_limit, kAcceptAllChallenges);
}

TEST_P(StoreTest, AVersion1DatabaseIsMigratedAndKeepsItsAccounts) {
  raw_exec(backend_migrations()[0]);
  raw_exec("INSERT INTO accounts VALUES ('alice', '$argon2id$x', 5)");
  set_schema_version(1);
  Store store(open_backend());
  EXPECT_EQ(store.schema_version(), static_cast<int>(migrations().size()));
  Snapshot snap = store.load();
  ASSERT_EQ(snap.accounts.size(), 1u);
  EXPECT_EQ(snap.accounts[0].name, "alice");
  EXPECT_EQ(snap.accounts[0].challenge_limit, kAcceptAllChallenges);
}

TEST_P(StoreTest, DeleteTableRemovesItsMovesAndChat) {
  Store store(open_backend());
  store.load();
  Batch b;
  b.put_table({1, "bohnduell", 101, "{}", 1});
  b.put_table({2, "bohnduell", 102, "{}", 1});
  b.add_move({1, 1, "S4", 0, false, 2});
  b.add_chat({1, 3, "guest1", "hi"});
  b.add_chat({2, 3, "guest2", "kept"});
  EXPECT_EQ(write(store, std::move(b)), "");
  Batch del;
  del.delete_table(1);
  EXPECT_EQ(write(store, std::move(del)), "");
  Snapshot snap = store.load();
  ASSERT_EQ(snap.tables.size(), 1u);
  EXPECT_EQ(snap.tables[0].id, 2);
  EXPECT_TRUE(snap.moves.empty());
  ASSERT_EQ(snap.chat.size(), 1u);
  EXPECT_EQ(snap.chat[2][0].text, "kept");
}

TEST_P(StoreTest, RefusesADatabaseFromTheFuture) {
  set_schema_version(99);
  EXPECT_THROW(Store store(open_backend()), std::runtime_error);
}

}  // namespace
}  // namespace plateau::store

namespace plateau::store {
namespace {

// Play by e-mail (issue 15): an account's address and the outbox survive a restart; a sent
// mail leaves it; one key (one event, one recipient) is queued at most once.
TEST_P(StoreTest, OutboxAndAccountAddressAreDurable) {
  {
    Store store(open_backend());
    store.load();
    Batch b;
    b.put_account({"alice", "$argon2id$x", 1000, -1, "alice@example.org"});
    b.add_mail({"phutball.101.1 alice", "alice@example.org", "Subject: a\r\n\r\nbody\r\n", 5});
    b.add_mail({"phutball.101.1 bob", "bob@example.org", "Subject: b\r\n\r\nbody\r\n", 5});
    EXPECT_EQ(write(store, std::move(b)), "");
    Batch again;
    again.add_mail({"phutball.101.1 bob", "bob@example.org", "x", 6});
    EXPECT_NE(write(store, std::move(again)), "");
    Batch sent;
    sent.delete_mail("phutball.101.1 alice");
    EXPECT_EQ(write(store, std::move(sent)), "");
  }
  Store store(open_backend());
  Snapshot snap = store.load();
  ASSERT_EQ(snap.accounts.size(), 1u);
  EXPECT_EQ(snap.accounts[0].email, "alice@example.org");
  ASSERT_EQ(snap.outbox.size(), 1u);
  EXPECT_EQ(snap.outbox[0],
            (MailRow{"phutball.101.1 bob", "bob@example.org", "Subject: b\r\n\r\nbody\r\n", 5}));
}

// Correspondence play (issue 15, items 4 and 5; migration 8): an account's notify setting and
// its vacations survive a restart; a vacation ended early replaces its row (same key).
TEST_P(StoreTest, NotifySettingAndVacationsAreDurable) {
  {
    Store store(open_backend());
    store.load();
    Batch b;
    b.put_account({"alice", "$argon2id$x", 1000, -1, "alice@example.org", "digest"});
    b.put_account({"bob", "$argon2id$y", 1000, -1, ""});
    b.put_vacation({"alice", 5000, 5000 + 3 * 86400000LL});
    b.put_vacation({"alice", 100, 200});
    EXPECT_EQ(write(store, std::move(b)), "");
    Batch ended;
    ended.put_vacation({"alice", 5000, 7000});
    EXPECT_EQ(write(store, std::move(ended)), "");
  }
  Store store(open_backend());
  Snapshot snap = store.load();
  ASSERT_EQ(snap.accounts.size(), 2u);
  EXPECT_EQ(snap.accounts[0].notify, "digest");
  EXPECT_EQ(snap.accounts[1].notify, "every");  // the default
  EXPECT_EQ(snap.vacations,
            (std::vector<VacationRow>{{"alice", 100, 200}, {"alice", 5000, 7000}}));
}

}  // namespace
}  // namespace plateau::store
