// Containment (issue 12, item 3): an exception at any point of a table's command path (the
// action, its rendering, its delivery) is contained to that table. The table answers
// "error: ...", tells its players, is back at its last committed state (never half-applied),
// and it and every other table go on. Faults are injected with the test-only hook of
// server/fault_hook.h.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <future>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "games/register.h"
#include "server/fault_hook.h"
#include "server/lobby.h"
#include "store/store.h"

namespace plateau::server {
namespace {

namespace fs = std::filesystem;

class FakeClient : public Client {
 public:
  void send(const Event& event, bool) override {
    std::lock_guard lock(mutex_);
    events_.push_back(event);
  }
  void close() override {}
  std::string describe() const override { return "fake " + name_; }
  explicit FakeClient(std::string name) : name_(std::move(name)) {}

  std::vector<Event> take() {
    std::lock_guard lock(mutex_);
    return std::exchange(events_, {});
  }

 private:
  std::string name_;
  std::mutex mutex_;
  std::vector<Event> events_;
};

class ContainmentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static const bool registered = [] {
      register_builtin_games();
      return true;
    }();
    (void)registered;
    // One directory per process: ctest runs every test of this fixture in a process of its
    // own, two at a time, and two of them once met in one directory ("database is locked"):
    // the seed is the time in ms and `this` is the same address in every process.
    dir_ = fs::temp_directory_path() /
           ("plateau-containment-" + std::to_string(::getpid()) + "-" +
            std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
            std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    fs::create_directories(dir_);
    store_ = std::make_unique<store::Store>(dir_ / "plateau.db");
    lobby_ = std::make_unique<Lobby>(io_, *store_, workers_, hashing_, limits_);
    lobby_->restore();
    io_thread_ = std::thread([this] { io_.run(); });
    alice_ = std::make_shared<FakeClient>("alice");
    bob_ = std::make_shared<FakeClient>("bob");
    run(alice_, "register alice alice-password");
    run(bob_, "register bob bob-password");
    for (int board : {101, 102}) {
      auto events = run(alice_, "bohnduell challenge -supply=8 alice bob");
      ASSERT_EQ(events.at(0).type, "challenge") << board << " " << message_of(events);
    }
    bob_->take();
  }

  void TearDown() override {
    set_table_fault_hook(nullptr);
    store_->flush();
    lobby_->stop();
    guard_.reset();
    io_.stop();
    io_thread_.join();
    workers_.join();
    hashing_.join();
    lobby_.reset();
    store_.reset();
    fs::remove_all(dir_);
  }

  // Runs one command line of `client` and returns what it was told.
  std::vector<Event> run(const std::shared_ptr<FakeClient>& client, const std::string& line) {
    std::promise<void> finished;
    boost::asio::post(io_, [&] { lobby_->handle(client, line, [&] { finished.set_value(); }); });
    finished.get_future().wait();
    return client->take();
  }

  static std::string message_of(const std::vector<Event>& events) {
    for (const auto& e : events) {
      if (e.type == "error") return e.data.value("message", std::string());
    }
    return "";
  }

  // The ply the board stands at, as `show` tells alice.
  int ply_of(int board) {
    for (const auto& e : run(alice_, "show " + std::to_string(board))) {
      if (e.type == "board") return e.data.value("ply", -1);
    }
    return -1;
  }

  // Throws `what` at `point` of table `table` (every time until the hook is removed).
  static void fail_at(const std::string& point, const std::string& table) {
    set_table_fault_hook([point, table](std::string_view p, const std::string& t) {
      if (p == point && t == table) throw std::runtime_error("injected fault at " + point);
    });
  }

  fs::path dir_;
  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard_{
      io_.get_executor()};
  boost::asio::thread_pool workers_{1};
  boost::asio::thread_pool hashing_{1};
  LobbyLimits limits_;
  std::unique_ptr<store::Store> store_;
  std::unique_ptr<Lobby> lobby_;
  std::thread io_thread_;
  std::shared_ptr<FakeClient> alice_, bob_;
};

TEST_F(ContainmentTest, AFaultAfterTheActionRollsTheMoveBack) {
  fail_at("action", "bohnduell 101");
  // The move was applied in memory when the fault hit: it must be undone.
  auto events = run(alice_, "move 101 S4#1");
  EXPECT_EQ(message_of(events),
            "internal error (injected fault at action); the table is as it was before the command");
  EXPECT_EQ(message_of(bob_->take()),
            "bohnduell 101: internal error (injected fault at action); the table is as it was "
            "before the command");
  // The other table is not affected, even while 101 keeps failing.
  events = run(alice_, "move 102 S4#1");
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.at(0).type, "move");
  EXPECT_EQ(ply_of(102), 1);
  // Once the fault is gone, the board is where it was and the same move is played.
  set_table_fault_hook(nullptr);
  EXPECT_EQ(ply_of(101), 0);
  events = run(alice_, "move 101 S4#1");
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.at(0).type, "move") << message_of(events);
  EXPECT_EQ(ply_of(101), 1);
  events = run(bob_, "move 101 S4#2");
  EXPECT_EQ(events.at(0).type, "move");
  EXPECT_EQ(ply_of(101), 2);
}

TEST_F(ContainmentTest, AFaultWhileFinishingStoresNothing) {
  run(alice_, "move 101 S4#1");
  fail_at("finish", "bohnduell 101");
  auto events = run(bob_, "move 101 S4#2");
  EXPECT_EQ(message_of(events),
            "internal error (injected fault at finish); the table is as it was before the command");
  set_table_fault_hook(nullptr);
  EXPECT_EQ(ply_of(101), 1);
  // Nothing of the failed move reached the store: after a restart the board is still at ply 1.
  store_->flush();
  std::promise<std::string> record;
  lobby_->find_table("bohnduell", 101)->fetch_record([&](std::string r) { record.set_value(r); });
  const std::string text = record.get_future().get();
  EXPECT_NE(text.find("A:S4"), std::string::npos) << text;
  EXPECT_EQ(text.find("B:S4"), std::string::npos) << text;
  events = run(bob_, "move 101 S4#2");
  EXPECT_EQ(events.at(0).type, "move") << message_of(events);
}

// The standings' lines as alice is told them.
std::vector<std::string> standings_of(std::vector<Event> events) {
  for (const auto& e : events) {
    if (e.type == "list") return e.data.value("lines", std::vector<std::string>());
  }
  return {};
}

TEST_F(ContainmentTest, ARatedEndThatFailsLeavesTheRatingsAlone) {
  run(alice_, "move 101 S4#1");
  run(bob_, "move 101 S4#2");
  fail_at("finish", "bohnduell 101");
  // The resignation ended the game and rated it in memory before the fault: all of it goes.
  auto events = run(alice_, "resign 101");
  EXPECT_EQ(message_of(events),
            "internal error (injected fault at finish); the table is as it was before the command");
  set_table_fault_hook(nullptr);
  EXPECT_EQ(standings_of(run(alice_, "standings bohnduell")),
            (std::vector<std::string>{"Standings of bohnduell:", "No rated games yet."}));
  EXPECT_EQ(ply_of(101), 2);
  events = run(alice_, "resign 101");
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back().type, "gameover") << message_of(events);
  EXPECT_EQ(standings_of(run(alice_, "standings bohnduell")).size(), 3u);
}

TEST_F(ContainmentTest, AFaultWhileDeliveringLosesOnlyThatEvent) {
  fail_at("deliver", "bohnduell 101");
  // Stored, but nobody can be told: the server goes on and the move stands.
  auto events = run(alice_, "move 101 S4#1");
  EXPECT_TRUE(events.empty());
  set_table_fault_hook(nullptr);
  EXPECT_EQ(ply_of(101), 1);
  events = run(bob_, "move 101 S4#2");
  EXPECT_EQ(events.at(0).type, "move");
}

TEST_F(ContainmentTest, AStoreFailureRollsBackAndReportsIt) {
  // A write the store refuses (a constraint: a move row already there) fails the whole batch;
  // the table goes back, says so, and goes on.
  run(alice_, "move 101 S4#1");
  store::Batch clash;
  const std::int64_t id = 1;  // board 101 is the first table stored
  clash.add_move({id, 2, "S4", 1, false, 0});
  std::promise<void> stored;
  store_->submit(std::move(clash), [&](std::exception_ptr e) {
    EXPECT_EQ(e, nullptr);
    stored.set_value();
  });
  stored.get_future().wait();
  auto events = run(bob_, "move 101 S3#2");
  const std::string message = message_of(events);
  // The players hear a fixed reason, never SQLite's message (store_failure.h).
  EXPECT_EQ(message, "the move could not be saved (a storage error); it was not played");
  EXPECT_EQ(ply_of(101), 1);
}

}  // namespace
}  // namespace plateau::server
