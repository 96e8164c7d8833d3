// The SQL of several nodes (src/cluster/cluster_db.h; issue 16 items 2 and 4) on the test
// PostgreSQL cluster (tests/store/pg_test_cluster.h): registration and its lock, liveness,
// ending a frozen node's sessions, claiming a dead node's tables (epoch + 1) and loading them,
// numbering new tables from the database, and the option checks. Skipped (saying why) only
// without the PostgreSQL server binaries when not root.
#include "cluster/cluster_db.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "../store/pg_test_cluster.h"
#include "store/batch.h"
#include "store/postgres_backend.h"

namespace plateau::cluster {
namespace {

using store::testing::pg_reset;
using store::testing::pg_skip_reason;
using store::testing::pg_url;

// Takes node `id`'s lock as soon as its old session has ended (the server ends a session a
// moment after its client goes): true within 10 s, else false.
bool lock_once_free(Connection& db, const std::string& id) {
  for (int i = 0; i < 200; ++i) {
    if (try_lock_node(db, id)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

class ClusterDbTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (pg_url().empty()) GTEST_SKIP() << pg_skip_reason();
    pg_reset();
    backend_ = std::make_unique<store::PostgresBackend>(pg_url());  // migrates
  }
  std::unique_ptr<Connection> connect(const std::string& node) {
    return std::make_unique<Connection>(url_for_node(pg_url(), node));
  }
  // Table `id` (bohnduell `number`) owned by `owner` at `epoch`, with `plies` moves and events.
  void add_table(std::int64_t id, int number, const std::string& owner, std::int64_t epoch,
                 int plies) {
    store::Batch b;
    b.put_table({id, "bohnduell", number, "{}", 1000, owner, epoch});
    for (int p = 1; p <= plies; ++p) {
      b.add_move({id, p, "m" + std::to_string(p), p % 2, false, 1000 + p});
      b.add_event({id, p, "move", "{}"});
    }
    b.add_chat({id, 5, "alice", "hi"});
    const store::Batch* group[] = {&b};
    ASSERT_FALSE(backend_->commit_group(group, 1).batch_errors.at(0));
  }
  std::unique_ptr<store::PostgresBackend> backend_;
};

TEST_F(ClusterDbTest, ANodeRegistersOnceAndASecondProcessOfTheSameIdIsRefused) {
  auto a = connect("a");
  ASSERT_TRUE(register_node(*a, {"a", "127.0.0.1:8023", 8090, 0, 0}));
  auto again = connect("a");
  EXPECT_FALSE(register_node(*again, {"a", "127.0.0.1:9023", 9090, 0, 0}));
  const auto rows = nodes(*a);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].id, "a");
  EXPECT_EQ(rows[0].address, "127.0.0.1:8023");  // the refused one changed nothing
  EXPECT_EQ(rows[0].node_port, 8090);
  EXPECT_EQ(rows[0].started_at, rows[0].seen_at);
  EXPECT_NEAR(static_cast<double>(rows[0].seen_at), static_cast<double>(db_now_ms(*a)), 5000.0);
  EXPECT_TRUE(heartbeat(*a, "a"));
  EXPECT_FALSE(heartbeat(*a, "nobody"));
}

TEST_F(ClusterDbTest, ADeadNodesLockIsFreeAndItsTablesAreClaimedWithTheNextEpoch) {
  add_table(1, 101, "a", 1, 3);
  add_table(2, 102, "a", 4, 0);
  add_table(3, 103, "b", 1, 1);
  auto a = connect("a");
  auto b = connect("b");
  ASSERT_TRUE(register_node(*a, {"a", "h:1", 2, 0, 0}));
  ASSERT_TRUE(register_node(*b, {"b", "h:3", 4, 0, 0}));
  EXPECT_FALSE(try_lock_node(*b, "a"));  // alive
  a.reset();                             // its session ends: dead
  ASSERT_TRUE(lock_once_free(*b, "a"));
  const auto stale = stale_nodes(*b, "b", 0);
  ASSERT_EQ(stale.size(), 1u);
  EXPECT_EQ(stale[0].first, "a");
  EXPECT_GE(stale[0].second, 0);
  EXPECT_TRUE(stale_nodes(*b, "b", 60000).empty());
  EXPECT_EQ(claim_tables(*b, "b", {"a"}), (std::vector<std::int64_t>{1, 2}));
  unlock_node(*b, "a");
  const auto loaded = load_tables(*b, {1, 2}, 2);
  ASSERT_EQ(loaded.size(), 2u);
  EXPECT_EQ(loaded[0].row, (store::TableRow{1, "bohnduell", 101, "{}", 1000, "b", 2}));
  EXPECT_EQ(loaded[1].row, (store::TableRow{2, "bohnduell", 102, "{}", 1000, "b", 5}));
  ASSERT_EQ(loaded[0].moves.size(), 3u);
  EXPECT_EQ(loaded[0].moves[2], (store::MoveRow{1, 3, "m3", 1, false, 1003}));
  ASSERT_EQ(loaded[0].events.size(), 2u);  // the last 2
  EXPECT_EQ(loaded[0].events[0].seq, 2);
  EXPECT_EQ(loaded[0].events[1].seq, 3);
  ASSERT_EQ(loaded[0].chat.size(), 1u);
  EXPECT_EQ(loaded[0].chat[0].text, "hi");
  EXPECT_TRUE(loaded[1].moves.empty());
  // The dead node's row went with its tables; table 3 stayed b's at its epoch.
  const auto rows = nodes(*b);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].id, "b");
  EXPECT_EQ(load_tables(*b, {3}, 10).at(0).row.epoch, 1);
}

TEST_F(ClusterDbTest, OwnersWithoutANodeRowAreOrphans) {
  add_table(1, 101, "a", 1, 0);
  add_table(2, 102, "gone", 3, 0);
  add_table(3, 103, "gone", 1, 0);
  add_table(4, 104, "", 0, 0);
  add_table(5, 105, "b", 1, 0);
  auto a = connect("a");
  ASSERT_TRUE(register_node(*a, {"a", "h:1", 2, 0, 0}));
  EXPECT_EQ(orphan_owners(*a, "a"), (std::vector<std::string>{"b", "gone"}));
  EXPECT_EQ(orphan_owners(*a, "b"), (std::vector<std::string>{"gone"}));
  EXPECT_EQ(claim_tables(*a, "a", {"gone"}), (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(orphan_owners(*a, "a"), (std::vector<std::string>{"b"}));
}

TEST_F(ClusterDbTest, ARestartingNodeClaimsBackItsOwnAndUnownedTables) {
  add_table(1, 101, "a", 2, 0);
  add_table(2, 102, "", 0, 0);
  add_table(3, 103, "b", 1, 0);
  auto a = connect("a");
  ASSERT_TRUE(register_node(*a, {"a", "h:1", 2, 0, 0}));
  EXPECT_EQ(claim_tables(*a, "a", {"a", ""}), (std::vector<std::int64_t>{1, 2}));
  const auto loaded = load_tables(*a, {1, 2, 3}, 10);
  ASSERT_EQ(loaded.size(), 3u);
  EXPECT_EQ(loaded[0].row.epoch, 3);
  EXPECT_EQ(loaded[1].row.owner, "a");
  EXPECT_EQ(loaded[1].row.epoch, 1);
  EXPECT_EQ(loaded[2].row.owner, "b");
  EXPECT_EQ(nodes(*a).size(), 1u);  // its own row stays
}

TEST_F(ClusterDbTest, AFrozenNodesSessionsAreEndedAndItsLockGoes) {
  auto a = connect("a");
  auto a_store = connect("a");  // the node's store connection, same application_name
  auto b = connect("b");
  ASSERT_TRUE(register_node(*a, {"a", "h:1", 2, 0, 0}));
  ASSERT_TRUE(register_node(*b, {"b", "h:3", 4, 0, 0}));
  EXPECT_FALSE(try_lock_node(*b, "a"));
  EXPECT_EQ(terminate_node(*b, "a"), 2);
  EXPECT_TRUE(lock_once_free(*b, "a"));
  EXPECT_THROW(heartbeat(*a, "a"), store::pg::ConnectionLost);
  EXPECT_THROW(a_store->exec("SELECT 1"), store::pg::ConnectionLost);
  EXPECT_TRUE(heartbeat(*b, "b"));  // not its own
}

TEST_F(ClusterDbTest, NewTablesAreNumberedByTheDatabaseAboveEveryStoredOne) {
  add_table(41, 107, "a", 1, 0);
  auto a = connect("a");
  auto b = connect("b");
  EXPECT_EQ(allocate_table(*a, "bohnduell"), (std::pair<int, std::int64_t>{108, 42}));
  EXPECT_EQ(allocate_table(*b, "bohnduell"), (std::pair<int, std::int64_t>{109, 43}));
  EXPECT_EQ(allocate_table(*b, "phutball"), (std::pair<int, std::int64_t>{101, 44}));
  EXPECT_EQ(allocate_table(*a, "phutball"), (std::pair<int, std::int64_t>{102, 45}));
}

TEST_F(ClusterDbTest, CounterBlocksAreReservedOncePerCaller) {
  auto a = connect("a");
  auto b = connect("b");
  EXPECT_EQ(reserve_counter(*a, "guest", 1, 64), 65);     // a: guest1 .. guest64
  EXPECT_EQ(reserve_counter(*b, "guest", 1, 64), 129);    // b: guest65 .. guest128
  EXPECT_EQ(reserve_counter(*a, "guest", 500, 64), 564);  // above what a has seen used
}

TEST_F(ClusterDbTest, OwnerOfNamesTheServingNode) {
  add_table(1, 101, "a", 1, 0);
  add_table(2, 102, "gone", 1, 0);
  auto a = connect("a");
  ASSERT_TRUE(register_node(*a, {"a", "10.0.0.1:8023", 8090, 0, 0}));
  const auto owner = owner_of(*a, "bohnduell", 101);
  ASSERT_TRUE(owner);
  EXPECT_EQ(owner->id, "a");
  EXPECT_EQ(owner->address, "10.0.0.1:8023");
  EXPECT_FALSE(owner_of(*a, "bohnduell", 102));  // no such node
  EXPECT_FALSE(owner_of(*a, "bohnduell", 103));  // no such table
}

TEST_F(ClusterDbTest, AccountsAndTokensWrittenByAnotherNodeAreRead) {
  store::Batch b;
  b.put_account({"Alice", "$argon2id$x", 1000, 3, "a@example.org", "off"});
  b.put_token({"00ff", "abcd", "Alice", false, 1000, 9000});
  const store::Batch* group[] = {&b};
  ASSERT_FALSE(backend_->commit_group(group, 1).batch_errors.at(0));
  auto db = connect("b");
  EXPECT_EQ(fetch_account(*db, "ALICE"),
            (store::AccountRow{"Alice", "$argon2id$x", 1000, 3, "a@example.org", "off"}));
  EXPECT_FALSE(fetch_account(*db, "bob"));
  EXPECT_EQ(fetch_token(*db, "00ff"),
            (store::TokenRow{"00ff", "abcd", "Alice", false, 1000, 9000}));
  EXPECT_FALSE(fetch_token(*db, "00FF"));
}

TEST(ClusterOptionsTest, NodeIdsAndAddressesAreChecked) {
  EXPECT_EQ(bad_node_id("node-1.eu_west"), "");
  EXPECT_EQ(bad_node_id(""), "a node id has 1 to 48 characters");
  EXPECT_EQ(bad_node_id(std::string(49, 'a')), "a node id has 1 to 48 characters");
  EXPECT_EQ(bad_node_id("a b"), "a node id is made of letters, digits, '.', '_' and '-'");
  EXPECT_EQ(bad_node_id("a\"b"), "a node id is made of letters, digits, '.', '_' and '-'");
  EXPECT_EQ(bad_node_address("game1.example.org:8023"), "");
  EXPECT_EQ(bad_node_address("10.0.0.1:1"), "");
  EXPECT_EQ(bad_node_address("[::1]:8023"), "");
  const std::string why = "HOST:PORT expected (a host name or address, a port from 1 to 65535)";
  for (const char* bad :
       {"host", ":8023", "host:", "host:0", "host:65536", "host:80x", "ho st:80", "host:-1"}) {
    EXPECT_EQ(bad_node_address(bad), why) << bad;
  }
  EXPECT_EQ(url_for_node("postgresql://u@h/db", "n1"),
            "postgresql://u@h/db?application_name=plateau-node-n1");
  EXPECT_EQ(url_for_node("postgresql://u@h/db?sslmode=require", "n1"),
            "postgresql://u@h/db?sslmode=require&application_name=plateau-node-n1");
}

}  // namespace
}  // namespace plateau::cluster
