// The fencing check of several nodes (issue 16 item 2; store/batch.h FenceTable, store/fence.h)
// on both backends: a batch commits only while the table is stored with the batch's owner and
// epoch; otherwise the whole batch fails with TableFenced, alone in its group, and nothing of
// it is stored. PostgreSQL also announces each committed batch's events with one pg_notify.
#include "store/fence.h"

#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <memory>
#include <string>
#include <vector>

#include "store/batch.h"
#include "store_backends.h"

namespace plateau::store {
namespace {

using testing::what;

class FenceTest : public testing::BackendTest {
 protected:
  void SetUp() override {
    testing::BackendTest::SetUp();
    if (IsSkipped()) return;
    backend_ = open_backend();
    Batch b;
    b.put_table({7, "bohnduell", 101, "{}", 1000, "node-a", 3});
    ASSERT_EQ(commit({&b}).at(0), "");
  }
  void TearDown() override {
    backend_.reset();
    testing::BackendTest::TearDown();
  }
  std::vector<std::string> commit(std::vector<const Batch*> batches) {
    GroupOutcome out = backend_->commit_group(batches, 1);
    EXPECT_EQ(what(out.commit_error), "");
    std::vector<std::string> errors;
    for (const auto& e : out.batch_errors) errors.push_back(what(e));
    return errors;
  }
  // A move of table 7 fenced by (owner, epoch), as a table of that node would write it.
  static Batch move(const std::string& owner, std::int64_t epoch, int ply) {
    Batch b;
    b.add_move({7, ply, "c", 0, false, 2000 + ply});
    b.add_event({7, ply, "move", "{}"});
    b.fence(7, owner, epoch);
    return b;
  }
  std::unique_ptr<Backend> backend_;
};
PLATEAU_ALL_BACKENDS(FenceTest);

TEST_P(FenceTest, TheFenceIsTheBatchsFirstOperation) {
  const Batch b = move("node-a", 3, 1);
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(b.ops()[0], Op(FenceTable{7, "node-a", 3}));
  EXPECT_EQ(b.ops()[1], Op(AddMove{{7, 1, "c", 0, false, 2001}}));
}

TEST_P(FenceTest, TheOwnerAtItsEpochCommits) {
  const Batch b = move("node-a", 3, 1);
  EXPECT_EQ(commit({&b}), std::vector<std::string>{""});
  const Snapshot snap = backend_->load();
  ASSERT_EQ(snap.moves.at(7).size(), 1u);
  EXPECT_EQ(snap.tables.at(0), (TableRow{7, "bohnduell", 101, "{}", 1000, "node-a", 3}));
}

TEST_P(FenceTest, AnOldEpochOrAnotherOwnerIsRefusedAndWritesNothing) {
  const Batch old_epoch = move("node-a", 2, 1);
  const Batch other_node = move("node-b", 3, 1);
  const Batch owner = move("node-a", 3, 1);
  // One group: the fenced batches fail alone, the owner's commits.
  EXPECT_EQ(commit({&old_epoch, &other_node, &owner}),
            (std::vector<std::string>{"table 7 is served by node node-a at epoch 3 now",
                                      "table 7 is served by node node-a at epoch 3 now", ""}));
  const Snapshot snap = backend_->load();
  ASSERT_EQ(snap.moves.at(7).size(), 1u);
  ASSERT_EQ(snap.events.at(7).size(), 1u);
}

TEST_P(FenceTest, TheErrorIsTableFencedWithTheStoredOwnerAndEpoch) {
  const Batch b = move("node-b", 4, 1);
  const Batch* group[] = {&b};
  GroupOutcome out = backend_->commit_group(group, 1);
  ASSERT_TRUE(out.batch_errors.at(0));
  try {
    std::rethrow_exception(out.batch_errors[0]);
  } catch (const TableFenced& e) {
    EXPECT_EQ(e.table_id(), 7);
    EXPECT_EQ(e.owner(), "node-a");
    EXPECT_EQ(e.epoch(), 3);
  }
}

TEST_P(FenceTest, PutTableKeepsTheOwnerAndEpochOfAStoredTable) {
  Batch b;
  b.put_table({7, "bohnduell", 101, R"({"v":2})", 1000, "node-b", 9});
  b.fence(7, "node-a", 3);
  EXPECT_EQ(commit({&b}), std::vector<std::string>{""});
  EXPECT_EQ(backend_->load().tables.at(0),
            (TableRow{7, "bohnduell", 101, R"({"v":2})", 1000, "node-a", 3}));
}

TEST_P(FenceTest, ANewTablePassesItsFence) {
  Batch b;
  b.fence(8, "node-b", 1);
  b.put_table({8, "bohnduell", 102, "{}", 1000, "node-b", 1});
  EXPECT_EQ(commit({&b}), std::vector<std::string>{""});
  EXPECT_EQ(backend_->load().tables.at(1).owner, "node-b");
}

// A registration never replaces an account another node registered meanwhile.
TEST_P(FenceTest, AddAccountFailsOnANameTakenInAnyCase) {
  Batch first;
  first.add_account({"alice", "$argon2id$a", 1000, -1});
  Batch second;
  second.add_account({"ALICE", "$argon2id$b", 2000, -1});
  const auto errors = commit({&first, &second});
  EXPECT_EQ(errors.at(0), "");
  EXPECT_NE(errors.at(1), "");
  const Snapshot snap = backend_->load();
  ASSERT_EQ(snap.accounts.size(), 1u);
  EXPECT_EQ(snap.accounts[0], (AccountRow{"alice", "$argon2id$a", 1000, -1}));
}

TEST_P(FenceTest, NodesAreStoredAndRead) {
  Batch b;
  b.put_node({"node-b", "10.0.0.2:8023", 8090, 1000, 2000});
  b.put_node({"node-a", "10.0.0.1:8023", 8090, 1000, 2500});
  EXPECT_EQ(commit({&b}), std::vector<std::string>{""});
  EXPECT_EQ(backend_->load().nodes,
            (std::vector<NodeRow>{{"node-a", "10.0.0.1:8023", 8090, 1000, 2500},
                                  {"node-b", "10.0.0.2:8023", 8090, 1000, 2000}}));
}

// One notification per committed batch with events (table, first seq, last seq, epoch), sent
// at the commit; none for a fenced batch.
// LISTEN/NOTIFY is PostgreSQL's: this suite runs on it alone.
class FenceNotifyTest : public FenceTest {};
INSTANTIATE_TEST_SUITE_P(All, FenceNotifyTest,
                         ::testing::Values(testing::BackendKind::kPostgres), testing::backend_name);

TEST_P(FenceNotifyTest, PostgresAnnouncesEachCommittedBatchOnce) {
  PGconn* listener = PQconnectdb(url().c_str());
  ASSERT_EQ(PQstatus(listener), CONNECTION_OK) << PQerrorMessage(listener);
  PQclear(PQexec(listener, "LISTEN plateau_events"));
  Batch two = move("node-a", 3, 1);
  two.add_move({7, 2, "d", 1, false, 2002});
  two.add_event({7, 2, "move", "{}"});
  const Batch fenced = move("node-a", 2, 3);
  const Batch chat_only = [] {
    Batch b;
    b.add_chat({7, 1, "alice", "hi"});
    b.fence(7, "node-a", 3);
    return b;
  }();
  EXPECT_EQ(commit({&two, &fenced, &chat_only}),
            (std::vector<std::string>{"", "table 7 is served by node node-a at epoch 3 now", ""}));
  PQclear(PQexec(listener, "SELECT 1"));  // reads whatever arrived
  PQconsumeInput(listener);
  std::vector<std::string> payloads;
  while (PGnotify* n = PQnotifies(listener)) {
    payloads.push_back(std::string(n->relname) + " " + n->extra);
    PQfreemem(n);
  }
  PQfinish(listener);
  EXPECT_EQ(payloads, std::vector<std::string>{"plateau_events 7,1,2,3"});
}

}  // namespace
}  // namespace plateau::store
