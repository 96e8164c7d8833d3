// `analyse BOARD[#n] [LEVEL]` (issue 17 item 7): the command's words, its bounds
// (AnalysisGate), the answer on a position whose best move is forced, and the command through a
// real Lobby: a forced win, a ply, the errors (bad ply, bad level, a board the caller may not
// see, the bounds). Forced positions: a Phutball win in one, a Biloba take.
#include "server/analysis.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <future>
#include <mutex>

#include "core/registry.h"
#include "games/register.h"
#include "server/analysis_gate.h"
#include "server/command.h"
#include "server/lobby.h"
#include "store/store.h"

namespace plateau::server {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

void register_games() {
  static const bool registered = [] {
    register_builtin_games();
    return true;
  }();
  (void)registered;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const CommandError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(AnalyseCommand, Words) {
  Command c = *parse_command("analyse 12#7 3");
  EXPECT_EQ(c.verb, Verb::kAnalyse);
  EXPECT_EQ(c.board, 12);
  EXPECT_EQ(c.ply_check, 7);
  EXPECT_EQ(c.args, std::vector<std::string>{"3"});
  c = *parse_command("analyze phutball 101");
  EXPECT_EQ(c.game, "phutball");
  EXPECT_EQ(c.board, 101);
  EXPECT_FALSE(c.ply_check.has_value());
  EXPECT_TRUE(c.args.empty());
  c = *parse_command("BohnDuell analyse 5#0 level5");
  EXPECT_EQ(c.game, "bohnduell");
  EXPECT_EQ(c.ply_check, 0);
  EXPECT_EQ(c.args, std::vector<std::string>{"level5"});
  const std::string usage = "usage: analyse [GAME] BOARD[#n] [LEVEL]";
  EXPECT_EQ(error_of([] { parse_command("analyse"); }), usage);
  EXPECT_EQ(error_of([] { parse_command("analyse phutball"); }), usage);
  EXPECT_EQ(error_of([] { parse_command("analyse 12 3 4"); }), usage);
  EXPECT_EQ(error_of([] { parse_command("analyse 12#x"); }),
            "bad ply number after '#' 'x': expected a number");
}

TEST(AnalysisGate, OneInFlightPerUserABurstThenARate) {
  AnalysisGate gate({3, 2000, 2});
  auto first = gate.admit("alice", 0);
  EXPECT_EQ(error_of([&] { gate.admit("Alice", 10); }),
            "an analysis of yours is still running; wait for its answer");
  first.reset();
  gate.admit("alice", 20);
  gate.admit("alice", 30);
  // The burst of 3 is spent: the next token comes 2 s after the last count.
  EXPECT_EQ(error_of([&] { gate.admit("alice", 40); }),
            "too many analyses: 3 in a row, then one every 2 s; try again in 2 s");
  EXPECT_EQ(error_of([&] { gate.admit("alice", 1500); }),
            "too many analyses: 3 in a row, then one every 2 s; try again in 1 s");
  gate.admit("alice", 2100);
  EXPECT_EQ(gate.running(), 0u);
}

TEST(AnalysisGate, TheServerRunsAtMostItsBound) {
  AnalysisGate gate({10, 1000, 2});
  auto a = gate.admit("alice", 0);
  auto b = gate.admit("bob", 0);
  EXPECT_EQ(gate.running(), 2u);
  EXPECT_EQ(error_of([&] { gate.admit("carol", 0); }),
            "the server is busy with 2 analyses; try again in a moment");
  a.reset();
  // A refusal for "busy" cost carol nothing: her burst is whole.
  for (int i = 0; i < 10; ++i) gate.admit("carol", 0);
  EXPECT_EQ(gate.running(), 1u);
}

TEST(AnalysisGate, ForgetsIdleUsersOnceTheirBucketIsFull) {
  AnalysisGate gate({2, 1000, 2});
  for (int i = 0; i < 4097; ++i) gate.admit("user" + std::to_string(i), 0);
  auto busy = gate.admit("busy", 500);
  EXPECT_EQ(gate.users(), 4098u);
  // At 1.5 s the first 4097 have their token back and nothing running: dropped; "busy" stays.
  gate.admit("late", 1500);
  EXPECT_EQ(gate.users(), 2u);
  EXPECT_EQ(error_of([&] { gate.admit("busy", 1500); }),
            "an analysis of yours is still running; wait for its answer");
}

TEST(AnalysisLevel, LadderLevelsAndTheGamesOwnPlayers) {
  register_games();
  auto phutball = make_game("phutball");
  auto biloba = make_game("biloba");
  EXPECT_EQ(analysis_level("3", *phutball), "3");
  EXPECT_EQ(analysis_level("Level5", *phutball), "5");
  EXPECT_EQ(analysis_level("classic", *biloba), "classic");
  EXPECT_EQ(error_of([&] { analysis_level("6", *phutball); }),
            "bad level '6' for phutball: levels are 1 to 5");
  EXPECT_EQ(error_of([&] { analysis_level("classic", *phutball); }),
            "bad level 'classic' for phutball: levels are 1 to 5");
  EXPECT_EQ(error_of([&] { analysis_level("0", *biloba); }),
            "bad level '0' for biloba: levels are 1 to 5 or classic");
}

// Phutball with the ball on H2 (handicap 8): after A19 A18 H1, Eks jumps H2 over H1 off the
// board beyond row 1, its goal: a win in one, found before any search.
std::shared_ptr<const State> forced_win() {
  register_games();
  auto game = make_game("phutball", "handicap=8");
  std::shared_ptr<State> s = game->initial_state();
  for (const char* m : {"A19", "A18", "H1"}) s->apply(s->parse_move(m));
  return s;
}

TEST(AnalysePosition, AWinInOne) {
  Event e = analyse_position({forced_win(), "phutball", 101, 3, "3", 1000});
  EXPECT_EQ(e.type, "analysis");
  json d = e.data;
  const std::string position = d["line"][0]["position"];
  d.erase("ms");
  d.erase("text");
  EXPECT_EQ(d, json::parse(R"({"game": "phutball", "board": 101, "ply": 3, "level": "3",
      "seat": "X", "best": "H2-H0", "exact": true, "nodes": 0, "score": 1.0,
      "unit": "expected return", "bar": 1.0, "line_text": "4. H2-H0",
      "line": [{"ply": 4, "seat": "X", "move": "H2-H0", "position": ")" +
                           position + R"("}]})"));
  auto after = forced_win()->clone();
  after->apply(after->parse_move("H2-H0"));
  EXPECT_EQ(position, after->serialize());
  const std::string text = e.data["text"];
  const std::string ms = std::to_string(e.data["ms"].get<long long>());
  EXPECT_EQ(text,
            "Analysis of phutball 101 at ply 3 (level 3): X to move; best H2-H0; score 1.000 "
            "(expected return for X, exact; bar +1.000); line 4. H2-H0; 0 nodes, " +
                ms + " ms.");
}

TEST(AnalysePosition, BohnDuellLineIsWrittenAsItsRecords) {
  register_games();
  auto game = make_game("bohnduell", "supply=8");
  std::shared_ptr<State> s = game->initial_state();
  for (const char* m : {"S4", "S4"}) s->apply(s->parse_move(m));
  Event e = analyse_position({s, "bohnduell", 7, 2, "5", 1000});
  // Level 5 is exact here (the solver's value: a draw with perfect play), as `plateau analyse`
  // says (tests/cli/cli_test.sh).
  EXPECT_EQ(e.data["best"], "S4");
  EXPECT_EQ(e.data["exact"], true);
  EXPECT_EQ(e.data["exact_value"], 0);
  EXPECT_EQ(e.data["score"], 0.5);
  EXPECT_EQ(e.data["bar"], 0.0);
  // After B's last S4 A has no move: the pass is written where the turn is skipped.
  EXPECT_EQ(e.data["line_text"],
            "A:S4 B:S4 A:S4 B:S4 A:S1 B:S4 A:H4 B:S3 A:S4 B:S4 A:H1 B:S4 A:pass");
  EXPECT_EQ(e.data["line"].size(), kMaxAnalysisLine);
}

// Biloba: e6-d5 sandwiches blue c5 against b5, the only capture (tests/ai/biloba_ai_test.cpp).
std::shared_ptr<const State> biloba_take() {
  register_games();
  return make_game("biloba")->parse_state(
      "##.....##/#.......#/........./....O..O./.OB.*..../........./........./#.B...B.#/##.....## "
      "O 2");
}

TEST(AnalysePosition, ABilobaTake) {
  Event e = analyse_position({biloba_take(), "biloba", 3, 0, "3", 1000});
  const std::string text = e.data["text"];
  // The take wins outright: blue is left with two pawns and no capture to come, and is out.
  EXPECT_EQ(text.substr(0, text.rfind(" nodes, ")),
            "Analysis of biloba 3 at ply 0 (level 3): O to move; best e6-d5/b5-c5; score 1.000 "
            "(expected return for O, exact; bar +1.000); line O:e6-d5/b5-c5 B:out; 81");
  EXPECT_EQ(e.data["line"].size(), 2u);
}

TEST(AnalysePosition, ClassicGivesNoEvaluation) {
  Event e = analyse_position({biloba_take(), "biloba", 3, 0, "classic", 1000});
  json d = e.data;
  for (const char* k : {"ms", "line", "text"}) d.erase(k);
  // Classic picks the take by its own rule (another refill order) and says nothing of its worth.
  EXPECT_EQ(d, json::parse(R"({"bar": 0.0, "best": "e6-d5/d5-c5", "board": 3, "exact": false,
      "game": "biloba", "level": "classic", "line_text": "O:e6-d5/d5-c5", "nodes": 0, "ply": 0,
      "score": null, "seat": "O", "unit": ""})"));
  const std::string text = e.data["text"];
  EXPECT_EQ(text.substr(0, text.rfind(" nodes, ")),
            "Analysis of biloba 3 at ply 0 (level classic): O to move; best e6-d5/d5-c5; no "
            "evaluation (classic plays by rule); line O:e6-d5/d5-c5; 0");
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

class AnalyseLobbyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    register_games();
    dir_ = fs::temp_directory_path() / ("plateau-analyse-" + std::to_string(::getpid()) + "-" +
                                        std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    fs::create_directories(dir_);
    limits_.analysis_burst = 4;
    limits_.analysis_refill_ms = 60000;
    store_ = std::make_unique<store::Store>(dir_ / "plateau.db");
    lobby_ = std::make_unique<Lobby>(io_, *store_, workers_, hashing_, limits_);
    lobby_->restore();
    io_thread_ = std::thread([this] { io_.run(); });
    run(alice_, "register alice alice-password");
    run(bob_, "register bob bob-password");
    run(carol_, "register carol carol-password");
    run(alice_, "phutball challenge -handicap=8 alice bob");
    run(alice_, "move 101 A19");
    run(bob_, "move 101 A18");
    run(alice_, "move 101 H1");
    bob_->take();
  }

  void TearDown() override {
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

  // The one answer to `line`: an analysis's text, or "error: ...". (A table event may come
  // meanwhile: carol's computer opponent moves when it likes.)
  std::string answer(const std::shared_ptr<FakeClient>& client, const std::string& line) {
    auto events = run(client, line);
    std::erase_if(events, [](const Event& e) { return e.type != "analysis" && e.type != "error"; });
    if (events.size() != 1) return "(" + std::to_string(events.size()) + " events)";
    const Event& e = events[0];
    if (e.type == "error") return "error: " + e.data.value("message", std::string());
    std::string text = e.data.value("text", std::string());
    // The wall time is the one thing that varies.
    const auto at = text.rfind(" nodes, ");
    return e.type + ": " + (at == std::string::npos ? text : text.substr(0, at) + " nodes");
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
  std::shared_ptr<FakeClient> alice_ = std::make_shared<FakeClient>();
  std::shared_ptr<FakeClient> bob_ = std::make_shared<FakeClient>();
  std::shared_ptr<FakeClient> carol_ = std::make_shared<FakeClient>();
};

TEST_F(AnalyseLobbyTest, APositionAndAnEarlierPly) {
  // Carol does not play; the board is visible, so she may analyse it.
  EXPECT_EQ(answer(carol_, "analyse 101"),
            "analysis: Analysis of phutball 101 at ply 3 (level 3): X to move; best H2-H0; score "
            "1.000 (expected return for X, exact; bar +1.000); line 4. H2-H0; 0 nodes");
  // Ply 2: Ohs to move, the ball two rows from Eks's goal; level 1's search is deterministic.
  EXPECT_EQ(answer(alice_, "phutball analyse 101#2 1"),
            "analysis: Analysis of phutball 101 at ply 2 (level 1): O to move; best H3; score "
            "0.095 (expected return for O; bar -0.809); line 3. H3; 51 nodes");
}

TEST_F(AnalyseLobbyTest, Errors) {
  EXPECT_EQ(answer(alice_, "analyse 101#4"), "error: no ply 4 at phutball 101; plies are 0..3");
  EXPECT_EQ(answer(alice_, "analyse 101 6"),
            "error: bad level '6' for phutball: levels are 1 to 5");
  EXPECT_EQ(answer(alice_, "analyse 101 classic"),
            "error: bad level 'classic' for phutball: levels are 1 to 5");
  EXPECT_EQ(answer(alice_, "analyse 999"), "error: no board 999");
  auto anonymous = std::make_shared<FakeClient>();
  EXPECT_EQ(answer(anonymous, "analyse 101"),
            "error: log in first: login NAME PASSWORD, register NAME PASSWORD or guest");
  // An invisible table is not there for those who may not reach it.
  run(carol_, "/open bohnduell");
  run(carol_, "/join 1");
  run(carol_, "/join cpu:1 2");
  run(carol_, "/option invisible");
  run(carol_, "/startnosave");
  // (Boards are numbered per game: this is bohnduell 101.)
  EXPECT_EQ(answer(bob_, "analyse bohnduell 101"), "error: no bohnduell board 101");
  EXPECT_EQ(answer(carol_, "analyse bohnduell 101#0").substr(0, 50),
            "analysis: Analysis of bohnduell 101 at ply 0 (leve");
  // A table in set-up has no position yet.
  run(bob_, "/open phutball");
  EXPECT_EQ(answer(bob_, "analyse phutball 102"),
            "error: the game at phutball 102 has not started");
}

TEST_F(AnalyseLobbyTest, TheGameOverAndTheBounds) {
  run(bob_, "move 101 H2-H0");
  alice_->take();  // the move and the end of the game
  EXPECT_EQ(
      answer(alice_, "analyse 101"), "error: the game at phutball 101 is over at ply 4 (" + [&] {
        auto s = forced_win()->clone();
        s->apply(s->parse_move("H2-H0"));
        return s->result_text();
      }() + "): nothing to analyse");
  // The burst of 4 (the refusal above counted: it was admitted) leaves 3, then the rate.
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(answer(alice_, "analyse 101#3").substr(0, 10), "analysis: ") << i;
  }
  EXPECT_EQ(answer(alice_, "analyse 101#3"),
            "error: too many analyses: 4 in a row, then one every 60 s; try again in 60 s");
  // One in flight per user: while the only worker is held, bob's analysis waits in the pool,
  // and a second one (another connection of his, say) is refused at once.
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  boost::asio::post(workers_, [released] { released.wait(); });
  std::promise<void> first_done;
  boost::asio::post(
      io_, [&] { lobby_->handle(bob_, "analyse 101#3", [&] { first_done.set_value(); }); });
  // Bob's analysis is in flight (queued behind the held worker: the io thread runs the two
  // commands in order); his next one is refused.
  EXPECT_EQ(answer(bob_, "analyse 101#3"),
            "error: an analysis of yours is still running; wait for its answer");
  release.set_value();
  first_done.get_future().wait();
  EXPECT_EQ(bob_->take().at(0).type, "analysis");
}

}  // namespace
}  // namespace plateau::server
