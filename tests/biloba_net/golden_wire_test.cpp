// Golden games' click streams (tests/data/biloba) replayed over the wire through Plateau's
// port-8000 server by one original-protocol client per seat, and a Plateau CPU seat playing a
// whole game against a scripted client (specs/biloba.md §11, §7.3).
#include <filesystem>
#include <future>

#include <unistd.h>

#include "games/biloba/biloba_rules.h"
#include "net_test_util.h"
#include "compat/biloba/blb.h"
#include "compat/biloba/click_game.h"

namespace plateau::biloba::net {
namespace {

using namespace testing;
using namespace std::chrono_literals;

// Plays golden record `id` with one client per seat; checks every client's final board, the
// result message, the server's replay and its .blb dump.
void play_golden_over_wire(const std::string& file, const std::string& id) {
  const auto rec = golden(file, id);
  ASSERT_FALSE(rec.is_null()) << id;
  const int players = rec["players"];
  const auto clicks = golden_clicks(rec);
  std::vector<std::vector<int>> per_seat(players);
  for (const auto& c : clicks) per_seat[c.seat].push_back(square_of(c.x, c.y));

  LegacyServerOptions options = test_options();
  const auto dump = std::filesystem::temp_directory_path() / ("plateau-blb-" + id + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dump);
  std::filesystem::create_directories(dump);
  options.dump_dir = dump.string();
  if (std::getenv("BILOBA_NET_LOG")) options.log_file = "-";
  std::promise<FinishedLegacyGame> finished;
  options.on_finished = [&](const FinishedLegacyGame& g) { finished.set_value(g); };
  LegacyServerThread server(options);

  std::vector<SeatDetail> details{{SeatType::kLocal, "Player 1"}};
  for (int s = 1; s < players; ++s) details.push_back({SeatType::kNetwork, "x"});
  auto creator = LegacyClient::create("127.0.0.1", server.port(), id, details);
  std::vector<LegacyClient> clients;
  clients.push_back(std::move(creator));
  for (int s = 1; s < players; ++s) {
    clients.push_back(LegacyClient::join("127.0.0.1", server.port(), players, 1,
                                         "Player " + std::to_string(s + 1)));
    ASSERT_EQ(clients.back().seat(), s);
  }
  std::vector<std::future<GameOutcome>> results;
  for (int s = 0; s < players; ++s) {
    results.push_back(std::async(std::launch::async, [&, s]() {
      LegacyClient& client = clients[s];
      client.connection().set_timeout(20s);
      const ReadyStatus ready = client.wait_ready(5ms, 10s);
      client.open_chat();
      ScriptInput input(per_seat[s]);
      return play_network_game(client, ready.names, {{s, &input}});
    }));
  }
  for (int s = 0; s < players; ++s) {
    ASSERT_EQ(results[s].wait_for(40s), std::future_status::ready);
    const GameOutcome out = results[s].get();
    EXPECT_TRUE(out.finished) << "seat " << s;
    EXPECT_EQ(board81(out.final_board), rec["final_board"].get<std::string>()) << "seat " << s;
    EXPECT_EQ(out.message, rec["result"]["message"].get<std::string>());
    EXPECT_EQ(out.clicks.records.size(), clicks.size());
  }
  auto future = finished.get_future();
  ASSERT_EQ(future.wait_for(10s), std::future_status::ready);
  const FinishedLegacyGame g = future.get();
  EXPECT_TRUE(g.finished);
  EXPECT_EQ(g.clicks.records.size(), clicks.size());
  EXPECT_NE(g.record.find("[Result "), std::string::npos);
  // The dump replays to the same final board (the original's replay reader semantics).
  const BlbGame blb = read_blb_file((dump / dump_file_name(1, id)).string());
  const GameOutcome replayed = replay_game(blb, 0ms);
  EXPECT_TRUE(replayed.finished);
  EXPECT_EQ(board81(replayed.final_board), rec["final_board"].get<std::string>());
  std::filesystem::remove_all(dump);
}

TEST(GoldenOverWire, Random2pWithIgnoredClicks) {
  play_golden_over_wire("random_2p.jsonl.gz", "random-2p-0081");
}

TEST(GoldenOverWire, OriginalAi4pCheckedAgainstTheRealProgram) {
  play_golden_over_wire("ai_4p.jsonl.gz", "ai-4p-0062");
}

// A Plateau CPU seat (declared AI in the player details) plays a whole game on port 8000
// against a scripted original-protocol client, which makes its own moves with a bot of its own.
TEST(CpuSeat, PlaysAWholeGameAgainstAScriptedClient) {
  LegacyServerOptions options = test_options();
  options.cpu_bot = "classic";  // the replica of the original's AI (spec §14)
  options.cpu_seed = 11;
  std::promise<FinishedLegacyGame> finished;
  options.on_finished = [&](const FinishedLegacyGame& g) { finished.set_value(g); };
  LegacyServerThread server(options);
  auto client = LegacyClient::create("127.0.0.1", server.port(), "vs cpu",
                                     {{SeatType::kLocal, "Human"}, {SeatType::kAi, "Plateau"}});
  client.connection().set_timeout(20s);
  const ReadyStatus ready = client.wait_ready(5ms, 5s);
  EXPECT_EQ(ready.names, (std::vector<std::string>{"Human", "Plateau"}));
  BotInput me("random", 5, start_position(2));
  const GameOutcome out = play_network_game(client, ready.names, {{0, &me}});
  EXPECT_TRUE(out.finished);
  EXPECT_TRUE(game_ended(out.final_board));
  EXPECT_GT(out.turns.size(), 10u);
  auto future = finished.get_future();
  ASSERT_EQ(future.wait_for(10s), std::future_status::ready);
  const FinishedLegacyGame g = future.get();
  EXPECT_TRUE(g.finished);
  EXPECT_EQ(g.clicks.records.size(), out.clicks.records.size());
}

// A network seat left free is filled by a CPU when the server is told to (cpu_fill_after), so
// an original client that creates a game can play Plateau's bots.
TEST(CpuSeat, FillsAFreeNetworkSeat) {
  LegacyServerOptions options = test_options();
  options.cpu_fill_after = 50ms;
  LegacyServerThread server(options);
  auto client = LegacyClient::create("127.0.0.1", server.port(), "fill",
                                     {{SeatType::kLocal, "Human"}, {SeatType::kNetwork, "P2"}});
  client.connection().set_timeout(20s);
  const ReadyStatus ready = client.wait_ready(10ms, 5s);
  EXPECT_EQ(ready.names, (std::vector<std::string>{"Human", "CPU 2"}));
  BotInput me("random", 3, start_position(2));
  const GameOutcome out = play_network_game(client, ready.names, {{0, &me}});
  EXPECT_TRUE(out.finished);
}

}  // namespace
}  // namespace plateau::biloba::net
