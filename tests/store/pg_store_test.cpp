// What only the PostgreSQL backend has: a password never shown, a lost connection survived,
// the texts PostgreSQL cannot hold refused cleanly (docs/STORE.md, issue 16 item 1).
#include <gtest/gtest.h>

#include <future>
#include <stdexcept>
#include <string>

#include "pg_test_cluster.h"
#include "store_backends.h"
#include "store/pg_connection.h"
#include "store/postgres_backend.h"
#include "store/store.h"

namespace plateau::store {
namespace {

using testing::pg_url;

using testing::what;

TEST(PgRedactTest, ThePasswordOfAUrlIsHiddenWhereverItIs) {
  EXPECT_EQ(pg::redact_url("postgresql://plateau:s3cret@db.example:5432/plateau"),
            "postgresql://plateau:***@db.example:5432/plateau");
  EXPECT_EQ(pg::redact_url("postgres://u:p%40ss@h/d?sslmode=require"),
            "postgres://u:***@h/d?sslmode=require");
  EXPECT_EQ(pg::redact_url("postgresql://u@h/d?password=s3cret&sslmode=require"),
            "postgresql://u@h/d?password=***&sslmode=require");
  EXPECT_EQ(pg::redact_url("host=h user=u password='a b\\'c' dbname=d"),
            "host=h user=u password=*** dbname=d");
  EXPECT_EQ(pg::redact_url("postgresql://u@h/d"), "postgresql://u@h/d");
  // A raw '@' in the password: everything up to the last '@' is hidden.
  EXPECT_EQ(pg::redact_url("postgresql://u:a@b@h/d"), "postgresql://u:***@h/d");
}

class PostgresOnlyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (pg_url().empty()) GTEST_SKIP() << testing::pg_skip_reason();
    testing::pg_reset();
  }
  // The test cluster's password (the URL's user:PASSWORD@).
  static std::string password() {
    const std::string& url = pg_url();
    const auto colon = url.find(':', url.find("://") + 3);
    return url.substr(colon + 1, url.find('@') - colon - 1);
  }
  static std::string commit(Backend& backend, const Batch& b) {
    const Batch* one[] = {&b};
    GroupOutcome out = backend.commit_group(one, 1);
    return out.commit_error ? "commit: " + what(out.commit_error) : what(out.batch_errors.at(0));
  }
};

TEST_F(PostgresOnlyTest, AConnectionErrorNamesTheServerButNotThePassword) {
  std::string url = pg_url();
  url.replace(url.rfind('/'), std::string::npos, "/no_such_database");
  try {
    PostgresBackend backend(url);
    FAIL() << "opened a database that does not exist";
  } catch (const std::runtime_error& e) {
    const std::string text = e.what();
    EXPECT_NE(text.find("cannot connect to PostgreSQL at postgresql://plateau:***@127.0.0.1:"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("database \"no_such_database\" does not exist"), std::string::npos)
        << text;
    EXPECT_EQ(text.find(password()), std::string::npos) << text;
  }
}

// libpq quotes a badly percent-encoded token of the URL in its message: the password too.
TEST(PgRedactTest, ABadlyEncodedPasswordIsHiddenInLibpqsMessage) {
  try {
    PostgresBackend backend("postgresql://u:pa%zz55word@127.0.0.1:1/d");
    FAIL() << "connected";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot connect to PostgreSQL at postgresql://u:***@127.0.0.1:1/d: invalid "
              "percent-encoded token: \"***\"");
  }
}

TEST_F(PostgresOnlyTest, ADatabaseNotInUtf8IsRefusedAtOpen) {
  pg::Connection admin(pg_url());
  admin.exec("DROP DATABASE IF EXISTS latin");
  admin.exec("CREATE DATABASE latin ENCODING 'LATIN1' TEMPLATE template0");
  std::string url = pg_url();
  url.replace(url.rfind('/'), std::string::npos, "/latin");
  try {
    PostgresBackend backend(url);
    FAIL() << "opened a LATIN1 database";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot open database " + pg::redact_url(url) +
                  ": the database's encoding is LATIN1, not UTF8 (createdb -E UTF8 -T template0)");
  }
}

TEST_F(PostgresOnlyTest, ATextWithANulByteFailsItsBatchAloneAndStoresNothingCut) {
  PostgresBackend backend(pg_url());
  Batch table;
  table.put_table({1, "bohnduell", 101, "{}", 1});
  ASSERT_EQ(commit(backend, table), "");
  Batch nul;
  nul.add_chat({1, 2, "alice", std::string("before\0after", 12)});
  Batch good;
  good.add_chat({1, 3, "bob", "fine"});
  const Batch* both[] = {&nul, &good};
  GroupOutcome out = backend.commit_group(both, 1);
  EXPECT_EQ(what(out.commit_error), "");
  EXPECT_EQ(what(out.batch_errors.at(0)), "a text with a NUL byte cannot be stored in PostgreSQL");
  EXPECT_EQ(what(out.batch_errors.at(1)), "");
  EXPECT_EQ(backend.load().chat[1], (std::vector<ChatRow>{{1, 3, "bob", "fine"}}));
}

TEST_F(PostgresOnlyTest, AnInvalidUtf8TextFailsItsBatchOnly) {
  PostgresBackend backend(pg_url());
  Batch b;
  b.put_account({std::string("\xff\xfe", 2), "$argon2id$x", 1});
  EXPECT_EQ(commit(backend, b), "invalid byte sequence for encoding \"UTF8\": 0xff");
  Batch ok;
  ok.put_account({"alice", "$argon2id$x", 1});
  EXPECT_EQ(commit(backend, ok), "");
}

// A group is sent as one pipeline (postgres_backend.h): thousands of batches, more than the
// sockets' buffers hold either way (2 KiB events), are sent while their answers are read, and
// every one is stored; a failing batch among them is undone alone.
TEST_F(PostgresOnlyTest, AGroupOfThousandsOfBatchesIsStoredWhole) {
  PostgresBackend backend(pg_url());
  Batch table;
  table.put_table({1, "bohnduell", 101, "{}", 1});
  ASSERT_EQ(commit(backend, table), "");
  constexpr int kBatches = 3000;
  std::vector<Batch> batches(kBatches);
  std::vector<const Batch*> group;
  for (int i = 0; i < kBatches; ++i) {
    batches[i].add_move({1, i + 1, "S4", i % 2, false, i});
    batches[i].add_event({1, i + 1, "move", std::string(2048, 'a' + i % 26)});
    group.push_back(&batches[i]);
  }
  GroupOutcome out = backend.commit_group(group, 1);
  ASSERT_EQ(what(out.commit_error), "");
  for (int i = 0; i < kBatches; ++i) ASSERT_EQ(what(out.batch_errors.at(i)), "") << i;
  Snapshot snap = backend.load();
  ASSERT_EQ(snap.moves[1].size(), static_cast<std::size_t>(kBatches));
  EXPECT_EQ(snap.moves[1].back(), (MoveRow{1, kBatches, "S4", 1, false, kBatches - 1}));
  ASSERT_EQ(snap.events[1].size(), static_cast<std::size_t>(kBatches));
  EXPECT_EQ(snap.events[1][2999].body, std::string(2048, 'a' + 2999 % 26));
  // The same plies again, and one new: only the new one is stored.
  Batch again = batches[5];
  Batch next;
  next.add_move({1, kBatches + 1, "S1", 0, false, 9});
  const Batch* pair[] = {&again, &next};
  out = backend.commit_group(pair, 2);
  EXPECT_EQ(what(out.commit_error), "");
  EXPECT_EQ(what(out.batch_errors.at(0)),
            "duplicate key value violates unique constraint \"moves_pkey\"");
  EXPECT_EQ(what(out.batch_errors.at(1)), "");
  EXPECT_EQ(backend.load().moves[1].size(), static_cast<std::size_t>(kBatches + 1));
}

// The server's session ends under the backend (an administrator, a failover of the database's
// host): the next group (or load) connects again by itself; nothing was sent of it, so nothing
// is lost.
TEST_F(PostgresOnlyTest, AConnectionEndedWhileIdleIsOpenedAgainForTheNextGroup) {
  PostgresBackend backend(pg_url());
  Batch table;
  table.put_table({1, "bohnduell", 101, "{}", 1});
  ASSERT_EQ(commit(backend, table), "");
  pg::Connection admin(pg_url());
  auto end_its_session = [&] {
    return admin
        .run("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
             "WHERE application_name = 'plateau' AND pid <> pg_backend_pid()")
        .integer(0, 0);
  };
  EXPECT_EQ(end_its_session(), 1);
  Batch move;
  move.add_move({1, 1, "S4", 0, false, 2});
  EXPECT_EQ(commit(backend, move), "");
  EXPECT_EQ(end_its_session(), 1);
  EXPECT_EQ(backend.load().moves[1], (std::vector<MoveRow>{{1, 1, "S4", 0, false, 2}}));
}

// The database server is down: every group fails (its callers are told, nobody hears of a
// write that is not stored), the Store goes on, and once the server is back the writes go on.
TEST_F(PostgresOnlyTest, TheStoreSurvivesTheDatabaseGoingDownAndComingBack) {
  Store store(std::make_unique<PostgresBackend>(pg_url()), 0);
  auto write = [&](Batch b) {
    std::promise<std::string> result;
    store.submit(std::move(b), [&](std::exception_ptr e) { result.set_value(what(e)); });
    return result.get_future().get();
  };
  Batch table;
  table.put_table({1, "bohnduell", 101, "{}", 1});
  ASSERT_EQ(write(table), "");
  testing::pg_pause();
  Batch lost;
  lost.add_move({1, 1, "S4", 0, false, 2});
  const std::string error = write(lost);
  testing::pg_resume();
  EXPECT_NE(error.find("cannot connect to PostgreSQL at postgresql://plateau:***@"),
            std::string::npos)
      << error;
  EXPECT_EQ(error.find(password()), std::string::npos) << error;
  Batch again;
  again.add_move({1, 1, "S3", 0, false, 3});
  EXPECT_EQ(write(again), "");
  const Snapshot snap = store.load();
  EXPECT_EQ(snap.moves.at(1), (std::vector<MoveRow>{{1, 1, "S3", 0, false, 3}}));
}

}  // namespace
}  // namespace plateau::store
