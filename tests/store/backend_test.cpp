// The store as an interface: batches are plain data, their operations' semantics hold through
// the Backend interface (SQLite and PostgreSQL alike), and the backend-independent Store keeps its promises
// (callbacks only after the commit, failures contained) whatever the backend does.
#include "store/backend.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "store/batch.h"
#include "store/sqlite_backend.h"
#include "store_backends.h"
#include "store/store.h"

namespace plateau::store {
namespace {

using testing::what;

TEST(BatchTest, OperationsAreRecordedInOrderAsData) {
  Batch b;
  b.put_table({7, "phutball", 101, "{}", 2000});
  b.add_move({7, 1, "H11", 0, false, 3000});
  b.delete_moves_from(7, 1);
  b.add_chat({7, 3500, "bob", "hello"});
  b.put_counter("guest", 12);
  b.put_account({"alice", "$argon2id$x", 1000, 3});
  b.put_rating({"phutball", "alice", 1612.5, 180.25, 0.06, 1});
  b.delete_table(7);
  const std::vector<Op> expected = {
      PutTable{{7, "phutball", 101, "{}", 2000}},
      AddMove{{7, 1, "H11", 0, false, 3000}},
      DeleteMovesFrom{7, 1},
      AddChat{{7, 3500, "bob", "hello"}},
      PutCounter{"guest", 12},
      PutAccount{{"alice", "$argon2id$x", 1000, 3}},
      PutRating{{"phutball", "alice", 1612.5, 180.25, 0.06, 1}},
      DeleteTable{7},
  };
  EXPECT_EQ(b.ops(), expected);
  EXPECT_EQ(b.size(), 8u);
  EXPECT_EQ(std::get<AddMove>(b.ops()[1]).row.move, "H11");
  // Rollbacks are the submitter's, not writes.
  b.on_rollback([] {});
  EXPECT_EQ(b.size(), 8u);
  EXPECT_EQ(b.take_rollbacks().size(), 1u);
}

// The Backend's operations, on SQLite and on PostgreSQL (store_backends.h).
class BackendOpsTest : public testing::BackendTest {
 protected:
  void SetUp() override {
    testing::BackendTest::SetUp();
    if (IsSkipped()) return;
    open();
  }
  void TearDown() override {
    backend_.reset();
    testing::BackendTest::TearDown();
  }
  void open() {
    backend_.reset();
    backend_ = open_backend();
  }
  Backend& backend() { return *backend_; }

  // Commits `batches` as one group; returns each batch's error text ("" = stored).
  std::vector<std::string> commit(const std::vector<Batch>& batches, std::int64_t alive = 1) {
    std::vector<const Batch*> ptrs;
    for (const Batch& b : batches) ptrs.push_back(&b);
    GroupOutcome out = backend().commit_group(ptrs, alive);
    EXPECT_EQ(what(out.commit_error), "");
    std::vector<std::string> errors;
    for (const auto& e : out.batch_errors) errors.push_back(what(e));
    return errors;
  }
  std::string commit_one(const Batch& b) { return commit({b}).at(0); }

  static Batch table(std::int64_t id, int number) {
    Batch b;
    b.put_table({id, "bohnduell", number, "{}", 1});
    return b;
  }

  std::unique_ptr<Backend> backend_;
};
PLATEAU_ALL_BACKENDS(BackendOpsTest);

TEST_P(BackendOpsTest, PutTableReplacesOnlyTheDataOfAnExistingTable) {
  Batch b;
  b.put_table({7, "phutball", 101, R"({"v":1})", 2000});
  ASSERT_EQ(commit_one(b), "");
  Batch again;
  again.put_table({7, "bohnduell", 105, R"({"v":2})", 9999});
  ASSERT_EQ(commit_one(again), "");
  const Snapshot snap = backend().load();
  ASSERT_EQ(snap.tables.size(), 1u);
  EXPECT_EQ(snap.tables[0], (TableRow{7, "phutball", 101, R"({"v":2})", 2000}));
}

TEST_P(BackendOpsTest, PutAccountReplacesTheAccountOfTheSameNameInAnyCase) {
  Batch b;
  b.put_account({"alice", "$argon2id$old", 1000, -1});
  b.put_account({"ALICE", "$argon2id$new", 2000, 2});
  ASSERT_EQ(commit_one(b), "");
  const Snapshot snap = backend().load();
  ASSERT_EQ(snap.accounts.size(), 1u);
  EXPECT_EQ(snap.accounts[0], (AccountRow{"ALICE", "$argon2id$new", 2000, 2}));
}

// SQLite's NOCASE folds ASCII letters only; PostgreSQL's plateau_nocase() does the same, so
// "Émile" and "émile" are two accounts (and two raters) in both, "Bob" and "BOB" one.
TEST_P(BackendOpsTest, NamesAreTheSameKeyInAnyAsciiCaseOnly) {
  Batch b;
  b.put_account({"\u00c9mile", "$argon2id$a", 1, -1});
  b.put_account({"\u00e9mile", "$argon2id$b", 2, -1});
  b.put_rating({"phutball", "Bob", 1500, 350, 0.06, 0});
  b.put_rating({"phutball", "BOB", 1510, 340, 0.06, 1});
  b.put_rating({"bohnduell", "bob", 1400, 300, 0.06, 2});
  ASSERT_EQ(commit_one(b), "");
  const Snapshot snap = backend().load();
  EXPECT_EQ(snap.accounts, (std::vector<AccountRow>{{"\u00c9mile", "$argon2id$a", 1, -1},
                                                    {"\u00e9mile", "$argon2id$b", 2, -1}}));
  EXPECT_EQ(snap.ratings, (std::vector<RatingRow>{{"bohnduell", "bob", 1400, 300, 0.06, 2},
                                                  {"phutball", "BOB", 1510, 340, 0.06, 1}}));
}

// Values are parameters, never SQL text: quotes, backslashes, SQL and long UTF-8 come back as
// they went in, on both backends.
TEST_P(BackendOpsTest, HostileTextsComeBackUnchanged) {
  std::string big;
  while (big.size() < (1u << 20)) big += "\u00e9\u265f\u65e5\U0001f3b2'\"\\";  // 1 MiB
  const std::vector<std::string> texts = {
      "it's \"quoted\" and back\\slashed \\' \\\\", "'); DROP TABLE moves; --",
      "$1 $2 %s %n {} \\x00 E'\\n'", big};
  Batch b = table(1, 101);
  for (std::size_t i = 0; i < texts.size(); ++i)
    b.add_chat({1, static_cast<std::int64_t>(i), texts[i], texts[i]});
  b.put_account({"o'brien\\", texts[1], 1, -1, texts[0]});
  ASSERT_EQ(commit_one(b), "");
  const Snapshot snap = backend().load();
  ASSERT_EQ(snap.chat.at(1).size(), texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    EXPECT_EQ(snap.chat.at(1)[i], (ChatRow{1, static_cast<std::int64_t>(i), texts[i], texts[i]}));
  }
  EXPECT_EQ(snap.accounts, (std::vector<AccountRow>{{"o'brien\\", texts[1], 1, -1, texts[0]}}));
}

TEST_P(BackendOpsTest, DeleteMovesFromDeletesThatTablesLaterPliesOnly) {
  Batch b = table(1, 101);
  b.put_table({2, "bohnduell", 102, "{}", 1});
  for (int ply = 1; ply <= 4; ++ply) {
    b.add_move({1, ply, "S" + std::to_string(ply), ply % 2, false, ply});
    b.add_move({2, ply, "S1", ply % 2, false, ply});
  }
  ASSERT_EQ(commit_one(b), "");
  Batch undo;
  undo.delete_moves_from(1, 3);
  undo.delete_moves_from(1, 9);  // nothing there: no change, no error
  ASSERT_EQ(commit_one(undo), "");
  Snapshot snap = backend().load();
  ASSERT_EQ(snap.moves[1].size(), 2u);
  EXPECT_EQ(snap.moves[1][1], (MoveRow{1, 2, "S2", 0, false, 2}));
  EXPECT_EQ(snap.moves[2].size(), 4u);
}

TEST_P(BackendOpsTest, TableEventsAreUniquePerSeqReadBackLastNAndDeletedWithTheTable) {
  Batch b = table(1, 101);
  b.put_table({2, "bohnduell", 102, "{}", 1});
  for (int seq = 1; seq <= 5; ++seq)
    b.add_event({1, seq, "chat", "{\"n\":" + std::to_string(seq) + "}"});
  b.add_event({2, 1, "move", "{}"});
  ASSERT_EQ(commit_one(b), "");
  Batch twice;
  twice.add_event({1, 5, "chat", "{}"});  // (table, seq) is the key: the batch fails
  EXPECT_NE(commit_one(twice), "");
  Batch orphan;
  orphan.add_event({9, 1, "chat", "{}"});  // no such table
  EXPECT_NE(commit_one(orphan), "");
  Snapshot snap = backend().load(2);
  EXPECT_EQ(snap.events[1],
            (std::vector<EventRow>{{1, 4, "chat", "{\"n\":4}"}, {1, 5, "chat", "{\"n\":5}"}}));
  EXPECT_EQ(snap.events[2], (std::vector<EventRow>{{2, 1, "move", "{}"}}));
  EXPECT_EQ(backend().load().events[1].size(), 5u);
  Batch gone;
  gone.delete_table(1);
  ASSERT_EQ(commit_one(gone), "");
  snap = backend().load();
  EXPECT_EQ(snap.events.count(1), 0u);
  EXPECT_EQ(snap.events[2].size(), 1u);
}

TEST_P(BackendOpsTest, ACounterNeverGoesDown) {
  Batch b;
  b.put_counter("guest", 10);
  b.put_counter("guest", 4);
  b.put_counter("other", 1);
  ASSERT_EQ(commit_one(b), "");
  Batch c;
  c.put_counter("guest", 11);
  ASSERT_EQ(commit_one(c), "");
  EXPECT_EQ(backend().load().counters,
            (std::map<std::string, std::int64_t>{{"guest", 11}, {"other", 1}}));
}

TEST_P(BackendOpsTest, AFailingBatchIsUndoneAloneAndTheRestOfTheGroupIsStored) {
  ASSERT_EQ(commit_one(table(1, 101)), "");
  Batch first;
  first.add_move({1, 1, "S4", 0, false, 1});
  Batch duplicate;
  duplicate.add_chat({1, 2, "x", "undone with its batch"});
  duplicate.add_move({1, 1, "S3", 1, false, 2});
  Batch orphan;
  orphan.add_chat({42, 3, "y", "no such table"});
  Batch last;
  last.add_move({1, 2, "S1", 1, false, 3});
  EXPECT_EQ(commit({first, duplicate, orphan, last}),
            (std::vector<std::string>{
                "",
                expected("UNIQUE constraint failed: moves.table_id, moves.ply",
                         "duplicate key value violates unique constraint \"moves_pkey\""),
                expected("FOREIGN KEY constraint failed",
                         "insert or update on table \"chat\" violates foreign key constraint "
                         "\"chat_table_id_fkey\""),
                ""}));
  Snapshot snap = backend().load();
  ASSERT_EQ(snap.moves[1].size(), 2u);
  EXPECT_EQ(snap.moves[1][0].move, "S4");
  EXPECT_EQ(snap.moves[1][1].move, "S1");
  EXPECT_TRUE(snap.chat.empty());
}

TEST_P(BackendOpsTest, DeleteTableTakesItsMovesAndChatAndIgnoresAnUnknownTable) {
  Batch b = table(1, 101);
  b.put_table({2, "bohnduell", 102, "{}", 1});
  b.add_move({1, 1, "S4", 0, false, 2});
  b.add_chat({1, 3, "guest1", "hi"});
  b.add_chat({2, 4, "guest2", "kept"});
  ASSERT_EQ(commit_one(b), "");
  Batch del;
  del.delete_table(1);
  del.delete_table(99);
  ASSERT_EQ(commit_one(del), "");
  Snapshot snap = backend().load();
  ASSERT_EQ(snap.tables.size(), 1u);
  EXPECT_EQ(snap.tables[0].id, 2);
  EXPECT_TRUE(snap.moves.empty());
  ASSERT_EQ(snap.chat.size(), 1u);
  EXPECT_EQ(snap.chat[2], (std::vector<ChatRow>{{2, 4, "guest2", "kept"}}));
}

TEST_P(BackendOpsTest, AnEmptyGroupIsAHeartbeatReadBackWhenReopened) {
  EXPECT_EQ(backend().load().alive_ms, 0);
  EXPECT_TRUE(commit({}, 123456).empty());
  EXPECT_EQ(backend().load().alive_ms, 0);  // the time found when opened, not the new one
  open();
  EXPECT_EQ(backend().load().alive_ms, 123456);
}

// A backend whose outcome the test decides, recording what the Store asked of it.
struct FakeState {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::size_t> group_sizes;  // one per commit_group call, heartbeats included
  bool committed_last = false;           // set when commit_group returns
  std::exception_ptr throw_next;         // thrown by the next commit_group
  std::exception_ptr commit_error_next;  // reported by the next commit_group
  bool short_outcome_next = false;       // the next outcome has no batch slots
};

class FakeBackend final : public Backend {
 public:
  explicit FakeBackend(FakeState& s) : s_(s) {}
  Snapshot load(std::size_t) override { return {}; }
  GroupOutcome commit_group(std::span<const Batch* const> batches, std::int64_t) override {
    std::lock_guard lock(s_.mutex);
    s_.group_sizes.push_back(batches.size());
    s_.committed_last = false;
    s_.changed.notify_all();
    if (auto e = std::exchange(s_.throw_next, nullptr)) std::rethrow_exception(e);
    GroupOutcome out;
    if (!std::exchange(s_.short_outcome_next, false)) out.batch_errors.resize(batches.size());
    out.commit_error = std::exchange(s_.commit_error_next, nullptr);
    s_.committed_last = true;
    return out;
  }
  int schema_version() const override { return 42; }

 private:
  FakeState& s_;
};

class StoreOverFakeTest : public ::testing::Test {
 protected:
  // Submits one batch and waits; returns its error text.
  std::string write(Store& store) {
    Batch b;
    b.put_counter("n", 1);
    std::promise<std::string> result;
    store.submit(std::move(b), [&](std::exception_ptr e) {
      bool after_commit = false;
      {
        std::lock_guard lock(state_.mutex);
        after_commit = state_.committed_last;
      }
      result.set_value(what(e) + (after_commit || e ? "" : " (told before the commit)"));
    });
    return result.get_future().get();
  }
  FakeState state_;
};

TEST_F(StoreOverFakeTest, CallbacksRunAfterTheBackendCommittedAndFailuresAreContained) {
  Store store(std::make_unique<FakeBackend>(state_), 0);
  EXPECT_EQ(store.schema_version(), 42);
  EXPECT_EQ(write(store), "");
  {
    std::lock_guard lock(state_.mutex);
    state_.throw_next = std::make_exception_ptr(std::runtime_error("disk on fire"));
  }
  EXPECT_EQ(write(store), "disk on fire");
  {
    std::lock_guard lock(state_.mutex);
    state_.commit_error_next = std::make_exception_ptr(std::runtime_error("commit failed"));
  }
  EXPECT_EQ(write(store), "commit failed");
  {
    std::lock_guard lock(state_.mutex);
    state_.short_outcome_next = true;
  }
  EXPECT_EQ(write(store), "store backend reported 0 results for 1 batches");
  EXPECT_EQ(write(store), "");  // the writer went on
  EXPECT_EQ(store.stats().commits, 2u);
  EXPECT_EQ(store.stats().batches, 5u);
}

TEST_F(StoreOverFakeTest, AnIdleStoreSendsHeartbeatsAndALastOneWhenStopping) {
  {
    Store store(std::make_unique<FakeBackend>(state_), 10);
    std::unique_lock lock(state_.mutex);
    ASSERT_TRUE(state_.changed.wait_for(lock, std::chrono::seconds(5),
                                        [&] { return state_.group_sizes.size() >= 2; }));
  }
  std::lock_guard lock(state_.mutex);
  for (std::size_t n : state_.group_sizes) EXPECT_EQ(n, 0u);
  EXPECT_GE(state_.group_sizes.size(), 3u);  // two while idle, one when stopping
}

TEST(StoreBackendTest, RefusesANullBackend) {
  EXPECT_THROW(Store store(std::unique_ptr<Backend>{}), std::invalid_argument);
}

}  // namespace
}  // namespace plateau::store
