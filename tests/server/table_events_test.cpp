// Table events (issue 13, items 1, 2, 5, 7) without any transport: the event log's bound, the
// stored form's round trip (the same bytes once rendered), per-table seq numbers without gaps
// (also across a failed commit: a rolled-back command numbers nothing), resync, and a repeated
// MOVE#n answered with the original event and nothing stored.
#include "server/table_events.h"

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
#include "server/render.h"
#include "store/store.h"

namespace plateau::server {
namespace {

namespace fs = std::filesystem;

std::shared_ptr<const RenderedEvent> numbered(std::int64_t seq, const std::string& type = "chat",
                                              int ply = 0) {
  Event e{type, {{"ply", ply}, {"text", "event " + std::to_string(seq)}}, {}};
  e.seq = seq;
  return std::make_shared<const RenderedEvent>(std::move(e));
}

std::vector<std::int64_t> seqs(const std::vector<EventLog::Entry>& events) {
  std::vector<std::int64_t> out;
  for (const auto& e : events) out.push_back(e->event().seq);
  return out;
}

TEST(EventLog, KeepsTheLastNAndAnswersOnlyWithoutGaps) {
  EventLog log(3);
  EXPECT_EQ(log.first_seq(), 0);
  ASSERT_TRUE(log.after(0, 0).has_value());
  EXPECT_TRUE(log.after(0, 0)->empty());
  for (int s = 1; s <= 5; ++s) log.append(numbered(s));
  EXPECT_EQ(log.first_seq(), 3);
  EXPECT_EQ(seqs(*log.after(2, 5)), (std::vector<std::int64_t>{3, 4, 5}));
  EXPECT_EQ(seqs(*log.after(4, 5)), (std::vector<std::int64_t>{5}));
  EXPECT_TRUE(log.after(5, 5)->empty());
  EXPECT_FALSE(log.after(1, 5).has_value());  // event 2 is gone: no partial answer
  EXPECT_FALSE(log.after(0, 5).has_value());
}

TEST(EventLog, FindsTheLatestMoveOfAPly) {
  EventLog log(10);
  log.append(numbered(1, "move", 1));
  log.append(numbered(2, "move", 2));
  log.append(numbered(3, "request", 0));
  log.append(numbered(4, "move", 2));  // ply 2 again, after an undo
  EXPECT_EQ(log.move_of_ply(1)->event().seq, 1);
  EXPECT_EQ(log.move_of_ply(2)->event().seq, 4);
  EXPECT_EQ(log.move_of_ply(3), nullptr);
}

TEST(TableEventCodec, RoundTripGivesTheSameBytes) {
  Event e{"move",
          {{"game", "bohnduell"}, {"ply", 3}, {"text", "bohnduell 101: 3. A alice S4"}},
          "Summary of BohnDuell Board 101\n\nIt is bob's turn.\n"};
  e.seq = 17;
  const store::EventRow row = encode_table_event(42, e);
  EXPECT_EQ(row.table_id, 42);
  EXPECT_EQ(row.seq, 17);
  EXPECT_EQ(row.kind, "move");
  const Event back = decode_table_event(row);
  EXPECT_EQ(render_text(back), render_text(e));
  EXPECT_EQ(render_json(back), render_json(e));
  EXPECT_NE(render_json(back).find("\"seq\":17"), std::string::npos) << render_json(back);
  EXPECT_THROW(decode_table_event({42, 18, "move", "{\"v\":9}"}), std::runtime_error);
  EXPECT_THROW(decode_table_event({42, 18, "move", "not json"}), std::runtime_error);
}

TEST(RenderedEvent, RendersOncePerFamilyAndSharesTheBytes) {
  RenderedEvent shared(Event{"chat", {{"text", "[bohnduell 101] bob: hi"}}, {}});
  EXPECT_EQ(shared.text().get(), shared.text().get());
  EXPECT_EQ(shared.json().get(), shared.json().get());
  EXPECT_EQ(*shared.text(), "[bohnduell 101] bob: hi\n");
  EXPECT_EQ(*shared.json(), render_json(shared.event()));
}

class FakeClient : public Client {
 public:
  void send(const Event& event, bool) override {
    std::lock_guard lock(mutex_);
    events_.push_back(event);
  }
  void close() override {}
  std::string describe() const override { return "fake"; }
  std::vector<Event> take() {
    std::lock_guard lock(mutex_);
    return std::exchange(events_, {});
  }

 private:
  std::mutex mutex_;
  std::vector<Event> events_;
};

class TableEventsTest : public ::testing::Test {
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
           ("plateau-table-events-" + std::to_string(::getpid()) + "-" +
            std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
            std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    fs::create_directories(dir_);
    store_ = std::make_unique<store::Store>(dir_ / "plateau.db");
    lobby_ = std::make_unique<Lobby>(io_, *store_, workers_, hashing_, limits_);
    lobby_->restore();
    io_thread_ = std::thread([this] { io_.run(); });
    alice_ = std::make_shared<FakeClient>();
    bob_ = std::make_shared<FakeClient>();
    run(alice_, "register alice alice-password");
    run(bob_, "register bob bob-password");
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

  std::vector<Event> run(const std::shared_ptr<FakeClient>& client, const std::string& line) {
    std::promise<void> finished;
    boost::asio::post(io_, [&] { lobby_->handle(client, line, [&] { finished.set_value(); }); });
    finished.get_future().wait();
    return client->take();
  }

  // (type, seq) of each event.
  static std::vector<std::pair<std::string, std::int64_t>> kinds(const std::vector<Event>& events) {
    std::vector<std::pair<std::string, std::int64_t>> out;
    for (const auto& e : events) out.emplace_back(e.type, e.seq);
    return out;
  }
  using Kinds = std::vector<std::pair<std::string, std::int64_t>>;

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

TEST_F(TableEventsTest, SeqCountsWithoutGapsAndRepliesCarryNone) {
  EXPECT_EQ(kinds(run(alice_, "bohnduell challenge -supply=8 alice bob")),
            (Kinds{{"challenge", 1}}));
  EXPECT_EQ(kinds(run(alice_, "move 101 S4#1")), (Kinds{{"move", 2}}));
  EXPECT_EQ(kinds(run(alice_, "show 101")), (Kinds{{"board", 0}}));
  EXPECT_EQ(kinds(run(alice_, "move 101 S4#2")), (Kinds{{"error", 0}}));
  EXPECT_EQ(kinds(bob_->take()), (Kinds{{"challenge", 1}, {"move", 2}}));
  // A command rolled back (the fault hits after its action) numbers nothing.
  set_table_fault_hook([](std::string_view p, const std::string&) {
    if (p == "finish") throw std::runtime_error("injected");
  });
  EXPECT_EQ(kinds(run(bob_, "move 101 S4#2")), (Kinds{{"error", 0}}));
  set_table_fault_hook(nullptr);
  alice_->take();
  EXPECT_EQ(kinds(run(bob_, "move 101 S4#2")), (Kinds{{"move", 3}}));
  EXPECT_EQ(kinds(alice_->take()), (Kinds{{"move", 3}}));
  EXPECT_EQ(kinds(run(alice_, "resync 101 0")),
            (Kinds{{"challenge", 1}, {"move", 2}, {"move", 3}, {"resync", 0}}));
}

TEST_F(TableEventsTest, ARepeatedMoveGetsTheOriginalEventAndStoresNothing) {
  run(alice_, "bohnduell challenge -supply=8 alice bob");
  const auto first = run(alice_, "move 101 S4#1");
  ASSERT_EQ(kinds(first), (Kinds{{"move", 2}}));
  bob_->take();
  const auto again = run(alice_, "move 101 S4#1");
  ASSERT_EQ(kinds(again), (Kinds{{"move", 2}}));
  EXPECT_EQ(render_text(again[0]), render_text(first[0]));
  EXPECT_EQ(render_json(again[0], 7), render_json(first[0], 7));
  EXPECT_TRUE(bob_->take().empty());  // nobody else hears it again
  // Another move for ply 1, or ply 1 claimed by bob, stays an error.
  EXPECT_EQ(again.size(), 1u);
  auto other = run(alice_, "move 101 S3#1");
  ASSERT_EQ(kinds(other), (Kinds{{"error", 0}}));
  EXPECT_EQ(other[0].data.value("message", ""), "it is not your turn: it is bob's turn");
  other = run(bob_, "move 101 S4#1");
  EXPECT_EQ(other[0].data.value("message", ""), "move #1 does not match: the next move is #2");
  // The next event is seq 3: the repeat took no number.
  EXPECT_EQ(kinds(run(bob_, "move 101 S4#2")), (Kinds{{"move", 3}}));
}

}  // namespace
}  // namespace plateau::server
