// The event feed's SQL (src/cluster/feed_db.h; docs/CLUSTER.md "Events across nodes") on the
// test PostgreSQL cluster (tests/store/pg_test_cluster.h): the events of many tables read in
// one query, the presence written in batches, and the seats by which a login finds its tables
// on other nodes (schema version 11). Skipped (saying why) only without the PostgreSQL server
// binaries when not root.
#include "cluster/feed_db.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
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

class FeedDbTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (pg_url().empty()) GTEST_SKIP() << pg_skip_reason();
    pg_reset();
    backend_ = std::make_unique<store::PostgresBackend>(pg_url());  // migrates
    db_ = std::make_unique<Connection>(pg_url());
  }
  // Node `id` seen `ago_ms` before the database's now.
  void node(const std::string& id, std::int64_t ago_ms = 0) {
    db_->run(
        "INSERT INTO nodes(id, address, node_port, started_at, seen_at) VALUES ($1, 'h:1', 2, "
        "0, $2) ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at",
        store::pg::Params().text(id).integer(db_now_ms(*db_) - ago_ms));
  }
  // Table `id` (bohnduell `number`) of `owner` with snapshot `data` and `events` events.
  void table(std::int64_t id, int number, const std::string& owner, const std::string& data,
             int events) {
    store::Batch b;
    b.put_table({id, "bohnduell", number, data, 1000, owner, 1});
    for (int seq = 1; seq <= events; ++seq) {
      b.add_event({id, seq, "move", "{\"n\":" + std::to_string(seq) + "}"});
    }
    const store::Batch* group[] = {&b};
    ASSERT_FALSE(backend_->commit_group(group, 1).batch_errors.at(0));
  }
  static std::string seats_json(const std::string& status, const std::string& a,
                                const std::string& b) {
    return R"({"status":")" + status + R"(","seats":[{"kind":"user","name":")" + a +
           R"("},{"kind":"user","name":")" + b + R"("}]})";
  }
  std::unique_ptr<store::PostgresBackend> backend_;
  std::unique_ptr<Connection> db_;
};

TEST_F(FeedDbTest, EventsOfManyTablesComeInOneQueryEachFromItsCursorAndCut) {
  table(1, 101, "a", "{}", 5);
  table(2, 102, "a", "{}", 2);
  table(3, 103, "a", "{}", 3);
  const auto rows = events_after_tables(*db_, {{3, 0}, {1, 2}, {2, 2}, {9, 0}}, 2);
  std::vector<std::pair<std::int64_t, std::int64_t>> got;
  for (const auto& r : rows) got.emplace_back(r.table_id, r.seq);
  // By table, then seq; table 1 from seq 3 cut at 2 rows, 2 has nothing new, 9 does not exist.
  EXPECT_EQ(got,
            (std::vector<std::pair<std::int64_t, std::int64_t>>{{1, 3}, {1, 4}, {3, 1}, {3, 2}}));
  EXPECT_EQ(rows[0].kind, "move");
  EXPECT_EQ(rows[0].body, "{\"n\":3}");
  EXPECT_TRUE(events_after_tables(*db_, {}, 16).empty());
  std::vector<std::pair<std::int64_t, std::int64_t>> too_many(kTablesPerRead + 1, {1, 0});
  EXPECT_THROW(events_after_tables(*db_, too_many, 16), std::invalid_argument);
}

TEST_F(FeedDbTest, PresenceIsWrittenInBatchesAndReadFromLiveNodesOnly) {
  node("a");
  node("b");
  node("dead", 5000);
  set_present(*db_, "a", {"alice", "Bob", "o\"dd\\name"}, {});
  set_present(*db_, "b", {"carol", "bob"}, {});
  set_present(*db_, "dead", {"zed"}, {});
  EXPECT_EQ(remote_presence(*db_, "c"),
            (std::vector<std::string>{"Bob", "alice", "carol", "o\"dd\\name"}));
  set_present(*db_, "a", {"dave"}, {"alice", "nobody"});
  EXPECT_EQ(remote_presence(*db_, "b"), (std::vector<std::string>{"Bob", "dave", "o\"dd\\name"}));
  reset_presence(*db_, "a", {"erin"});
  EXPECT_EQ(remote_presence(*db_, "b"), (std::vector<std::string>{"erin"}));
  reset_presence(*db_, "a", {});
  EXPECT_TRUE(remote_presence(*db_, "b").empty());
}

TEST_F(FeedDbTest, ALoginFindsItsTablesOnOtherLiveNodesThroughTheSeats) {
  node("a");
  node("b");
  node("dead", 5000);
  table(1, 101, "a", seats_json("playing", "Alice", "bob"), 4);
  table(2, 102, "a", seats_json("setup", "alice", "carol"), 0);
  table(3, 103, "a", seats_json("over", "alice", "bob"), 2);        // over: not followed
  table(4, 104, "b", seats_json("playing", "alice", "bob"), 1);     // the asker's own node
  table(5, 105, "dead", seats_json("playing", "alice", "bob"), 1);  // not live
  table(6, 106, "b", seats_json("playing", "alice", "bob"), 1);     // moved to b: a's row stale
  table(7, 107, "a", "not json", 1);                                // damaged: left out
  put_seats(*db_, "a",
            {{1, "alice"}, {1, "bob"}, {2, "alice"}, {3, "alice"}, {6, "alice"}, {7, "alice"}}, {},
            true);
  put_seats(*db_, "b", {{4, "alice"}, {6, "alice"}}, {}, true);
  put_seats(*db_, "dead", {{5, "alice"}}, {}, true);
  auto ids = [&](const std::string& self, const std::string& name, int limit) {
    std::vector<std::int64_t> out;
    for (const auto& t : seated_tables(*db_, self, name, limit)) out.push_back(t.id);
    return out;
  };
  const auto found = seated_tables(*db_, "b", "ALICE", 32);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].id, 1);
  EXPECT_EQ(found[0].game, "bohnduell");
  EXPECT_EQ(found[0].number, 101);
  EXPECT_EQ(found[0].last_seq, 4);
  EXPECT_EQ(found[1].id, 2);
  EXPECT_EQ(found[1].last_seq, 0);
  EXPECT_EQ(ids("b", "alice", 1), (std::vector<std::int64_t>{1}));
  EXPECT_EQ(ids("c", "alice", 32), (std::vector<std::int64_t>{1, 2, 4, 6}));
  EXPECT_EQ(ids("b", "bob", 32), (std::vector<std::int64_t>{1}));
  // The seat rows name the candidates: carol sits at 102 but no row says so (yet).
  EXPECT_TRUE(ids("b", "carol", 32).empty());
  EXPECT_TRUE(ids("b", "nobody", 32).empty());
  // A diff: alice leaves 1, dave sits at 2; then a reset keeps only what it names.
  put_seats(*db_, "a", {{2, "dave"}}, {{1, "alice"}}, false);
  EXPECT_EQ(ids("b", "alice", 32), (std::vector<std::int64_t>{2}));
  put_seats(*db_, "a", {{1, "bob"}}, {}, true);
  EXPECT_TRUE(ids("b", "alice", 32).empty());
  EXPECT_EQ(ids("b", "bob", 32), (std::vector<std::int64_t>{1}));
  // A node gone for good (no nodes row) loses its rows.
  db_->exec("DELETE FROM nodes WHERE id = 'dead'");
  forget_gone_nodes(*db_);
  EXPECT_EQ(db_->run("SELECT count(*) FROM plateau_seats WHERE node = 'dead'").integer(0, 0), 0);
}

TEST_F(FeedDbTest, TheSeatsAreLookedUpByAnIndexOfVersion11) {
  EXPECT_EQ(db_->run("SELECT version FROM plateau_schema").integer(0, 0), 11);
  EXPECT_EQ(db_->run("SELECT indexdef FROM pg_indexes WHERE indexname = 'plateau_seats_by_name'")
                .text(0, 0),
            "CREATE INDEX plateau_seats_by_name ON public.plateau_seats USING btree (name)");
}

}  // namespace
}  // namespace plateau::cluster
