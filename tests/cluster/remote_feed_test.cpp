// A follower of another node's table on this node (src/server/remote_feed.h RemoteFeed, over
// the event feed and the test PostgreSQL cluster): the answer to its own forwarded command and
// the events the feed reads reach it once each, also when the answer overtakes an event the
// feed has not delivered yet (it is not lost: it comes right after the answer), and a table
// whose follower was told already by the answer is not read again. Skipped (saying why) only
// without the PostgreSQL server binaries when not root.
#include "server/remote_feed.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/asio/thread_pool.hpp>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "../store/pg_test_cluster.h"
#include "games/register.h"
#include "server/lobby.h"
#include "server/table_events.h"
#include "store/batch.h"
#include "store/postgres_backend.h"
#include "store/store.h"

namespace plateau::server {
namespace {

namespace fs = std::filesystem;
using store::testing::pg_reset;
using store::testing::pg_skip_reason;
using store::testing::pg_url;

constexpr std::int64_t kTable = 7;

class RecordingClient : public Client {
 public:
  void send(const Event& event, bool reply) override {
    std::lock_guard lock(mutex_);
    heard_.emplace_back(event.seq, reply);
  }
  void close() override {}
  std::string describe() const override { return "recording"; }
  // (seq, reply) of each event, in arrival order.
  std::vector<std::pair<std::int64_t, bool>> heard() {
    std::lock_guard lock(mutex_);
    return heard_;
  }

 private:
  std::mutex mutex_;
  std::vector<std::pair<std::int64_t, bool>> heard_;
};

Event chat(std::int64_t seq) {
  return Event{"chat", {{"text", "[bohnduell 101] alice: line " + std::to_string(seq)}}, {}, seq};
}

class RemoteFeedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (pg_url().empty()) GTEST_SKIP() << pg_skip_reason();
    static const bool registered = [] {
      register_builtin_games();
      return true;
    }();
    (void)registered;
    pg_reset();
    store::PostgresBackend backend(pg_url());  // migrates
    store::Batch b;
    b.put_table({kTable, "bohnduell", 101, "{}", 1000, "a", 1});
    for (std::int64_t seq = 1; seq <= 10; ++seq) b.add_event(encode_table_event(kTable, chat(seq)));
    const store::Batch* group[] = {&b};
    ASSERT_FALSE(backend.commit_group(group, 1).batch_errors.at(0));
    db_ = std::make_unique<store::pg::Connection>(pg_url());
    dir_ = fs::temp_directory_path() / ("plateau-remote-feed-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    store_ = std::make_unique<store::Store>(dir_ / "plateau.db");
    lobby_ = std::make_unique<Lobby>(io_, *store_, workers_, hashing_, limits_);
    feed_ = std::make_unique<RemoteFeed>(*lobby_, cluster::FeedOptions{pg_url(), "b"});
    feed_->start();
    client_ = std::make_shared<RecordingClient>();
  }
  void TearDown() override {
    if (feed_) feed_->stop();
    feed_.reset();
    if (lobby_) {
      store_->flush();
      lobby_->stop();
    }
    workers_.join();
    hashing_.join();
    lobby_.reset();
    store_.reset();
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  // Event `seq` stored as the owner would, announced or not.
  void store_event(std::int64_t seq, bool announce) {
    const auto row = encode_table_event(kTable, chat(seq));
    db_->run("INSERT INTO table_events(table_id, seq, kind, body) VALUES ($1, $2, $3, $4)",
             store::pg::Params().integer(kTable).integer(seq).text(row.kind).text(row.body));
    if (announce) {
      const std::string n =
          std::to_string(kTable) + "," + std::to_string(seq) + "," + std::to_string(seq) + ",1";
      db_->run("SELECT pg_notify('plateau_events', $1)", store::pg::Params().text(n));
    }
  }
  // What the client heard once it has heard `count` events (5 s at most), and 0.3 s more.
  std::vector<std::pair<std::int64_t, bool>> heard_after(std::size_t count) {
    for (int i = 0; i < 500 && client_->heard().size() < count; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    return client_->heard();
  }
  using Heard = std::vector<std::pair<std::int64_t, bool>>;

  boost::asio::io_context io_;
  boost::asio::thread_pool workers_{1};
  boost::asio::thread_pool hashing_{1};
  LobbyLimits limits_;
  fs::path dir_;
  std::unique_ptr<store::pg::Connection> db_;
  std::unique_ptr<store::Store> store_;
  std::unique_ptr<Lobby> lobby_;
  std::unique_ptr<RemoteFeed> feed_;
  std::shared_ptr<RecordingClient> client_;
};

TEST_F(RemoteFeedTest, AnAnswerThatOvertakesAnEventLosesNothingAndTellsNothingTwice) {
  feed_->follow(client_, kTable, "bohnduell", 101, 10);
  EXPECT_EQ(heard_after(0), Heard{});  // nothing after 10
  // Another player's line (11) is stored but not read yet when the client's own command (12)
  // is answered through the node link.
  store_event(11, false);
  store_event(12, false);
  feed_->send_answer(client_, kTable, 12, 10, [&] { client_->send(chat(12), true); });
  EXPECT_EQ(heard_after(2), (Heard{{12, true}, {11, false}}));
  EXPECT_EQ(feed_->positions(client_), (std::map<std::int64_t, std::int64_t>{{kTable, 12}}));
  // The owner's announcements of 11 and 12 come late: nothing is told again.
  store_event(13, false);
  db_->exec("SELECT pg_notify('plateau_events', '7,11,12,1')");
  EXPECT_EQ(heard_after(2), (Heard{{12, true}, {11, false}}));
  // An answer right after the cursor moves it; the feed does not read for that batch, and the
  // next event comes once.
  feed_->send_answer(client_, kTable, 13, 12, [&] { client_->send(chat(13), true); });
  db_->exec("SELECT pg_notify('plateau_events', '7,13,13,1')");
  store_event(14, true);
  EXPECT_EQ(heard_after(4), (Heard{{12, true}, {11, false}, {13, true}, {14, false}}));
}

}  // namespace
}  // namespace plateau::server
