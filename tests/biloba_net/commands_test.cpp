// The `biloba` and `biloba-server` commands, run as a user would (loopback, a port chosen by
// the server and read from its log): two clients replay a golden game through our server, a
// client's bot plays the server's CPU seat, the server's dump replays with `biloba FILE.blb`,
// and a local CPU game ends with a result.
#include <regex>

#include "games/biloba/biloba_board.h"
#include "net_test_util.h"
#include "process_util.h"

namespace plateau::biloba::net {
namespace {

using namespace testing;

class Commands : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("plateau-commands-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "dump");
  }
  void TearDown() override {
    server_.reset();
    fs::remove_all(dir_);
  }
  // Starts biloba-server on an ephemeral port; returns the port.
  unsigned short start_server(std::vector<std::string> extra = {}) {
    std::vector<std::string> argv{BILOBA_SERVER_EXE, "--address", "127.0.0.1", "--port", "0",
                                  "--cpu-delay", "0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.push_back((dir_ / "server.log").string());
    argv.push_back((dir_ / "dump").string());
    server_ = std::make_unique<Child>(argv, dir_ / "server.out");
    const std::regex listening("listening on [0-9.]+:([0-9]+)");
    for (int i = 0; i < 250; ++i) {
      std::smatch m;
      const std::string out = slurp(dir_ / "server.out");
      if (std::regex_search(out, m, listening)) return static_cast<unsigned short>(std::stoi(m[1]));
      std::this_thread::sleep_for(20ms);
    }
    ADD_FAILURE() << "biloba-server did not start: " << slurp(dir_ / "server.out");
    return 0;
  }
  fs::path dir_;
  std::unique_ptr<Child> server_;
};

TEST_F(Commands, TwoClientsReplayAGoldenGameThroughOurServer) {
  const unsigned short port = start_server();
  ASSERT_NE(port, 0);
  const auto rec = golden("random_2p.jsonl.gz", "random-2p-0081");
  std::string seat_clicks[2];
  for (const auto& c : golden_clicks(rec)) {
    seat_clicks[c.seat] += square_name(square_of(c.x, c.y)) + " ";
  }
  for (int s = 0; s < 2; ++s) std::ofstream(dir_ / ("seat" + std::to_string(s))) << seat_clicks[s];
  const std::string p = std::to_string(port);
  Child a({BILOBA_EXE, "localhost", "--port", p, "--create", "g/1", "--name", "Ann", "--clicks",
           (dir_ / "seat0").string(), "-q"},
          dir_ / "a.out");
  for (int i = 0; i < 250 && list_games("127.0.0.1", port, 2).empty(); ++i) {
    std::this_thread::sleep_for(20ms);
  }
  Child b({BILOBA_EXE, "127.0.0.1", "--port", p, "--join", "1", "--name", "Bob", "--clicks",
           (dir_ / "seat1").string(), "-q"},
          dir_ / "b.out");
  EXPECT_EQ(a.wait(30s), 0) << slurp(dir_ / "a.out");
  EXPECT_EQ(b.wait(30s), 0) << slurp(dir_ / "b.out");
  for (const char* who : {"a.out", "b.out"}) {
    const std::string out = slurp(dir_ / who);
    EXPECT_NE(out.find("Bob wins !"), std::string::npos) << out;
    EXPECT_EQ(printed_board(out), rec["final_board"].get<std::string>()) << who;
  }
  // The server's dump ('/' in the game name becomes '_'), replayed by `biloba FILE.blb`.
  const fs::path dump = dir_ / "dump" / "1-g_1.blb";
  for (int i = 0; i < 250 && !fs::exists(dump); ++i) std::this_thread::sleep_for(20ms);
  Child replay({BILOBA_EXE, dump.string(), "--replay-delay", "0", "-q"}, dir_ / "r.out");
  EXPECT_EQ(replay.wait(30s), 0) << slurp(dir_ / "r.out");
  const std::string out = slurp(dir_ / "r.out");
  EXPECT_NE(out.find("Bob wins !"), std::string::npos) << out;
  EXPECT_EQ(printed_board(out), rec["final_board"].get<std::string>());
}

// The server seats its `classic` bot in the free seat; the client's own seat is played by a
// bot too (`--cpu`), so a whole game runs unattended.
TEST_F(Commands, ServerCpuSeatAgainstAClientBot) {
  const unsigned short port = start_server({"--cpu-fill", "0.05"});
  ASSERT_NE(port, 0);
  Child a({BILOBA_EXE, "127.0.0.1", "--port", std::to_string(port), "--create", "vs cpu",
           "--cpu", "--level", "random", "--cpu-delay", "0", "--seed", "5", "-q"},
          dir_ / "a.out");
  EXPECT_EQ(a.wait(60s), 0) << slurp(dir_ / "a.out");
  const std::string out = slurp(dir_ / "a.out");
  EXPECT_NE(out.find("Players: Player 1, CPU 2"), std::string::npos) << out;
  EXPECT_TRUE(out.find(" wins !") != std::string::npos || out.find("Draw") != std::string::npos)
      << out;
}

TEST_F(Commands, LocalCpuGameEndsWithAResult) {
  Child a({BILOBA_EXE, "-n", "3", "--seats", "cpu,cpu,cpu", "--level", "random", "--cpu-delay",
           "0", "--seed", "2", "-q", "--save", (dir_ / "local.blb").string()},
          dir_ / "a.out");
  EXPECT_EQ(a.wait(60s), 0) << slurp(dir_ / "a.out");
  const std::string out = slurp(dir_ / "a.out");
  EXPECT_TRUE(out.find(" wins !") != std::string::npos || out.find("Draw") != std::string::npos)
      << out;
  EXPECT_EQ(printed_board(out).size(), 81u);
  EXPECT_TRUE(fs::exists(dir_ / "local.blb"));
}

TEST_F(Commands, BadArgumentsAreRefused) {
  Child a({BILOBA_EXE, "-n", "5", "--seats", "cpu,cpu"}, dir_ / "a.out");
  EXPECT_EQ(a.wait(10s), 2);
  EXPECT_NE(slurp(dir_ / "a.out").find("--players must be 2, 3 or 4"), std::string::npos);
  std::ofstream(dir_ / "bad.blb") << "not a replay";
  Child b({BILOBA_EXE, (dir_ / "bad.blb").string()}, dir_ / "b.out");
  EXPECT_EQ(b.wait(10s), 2);
  EXPECT_NE(slurp(dir_ / "b.out").find("not a Biloba replay file"), std::string::npos);
}

}  // namespace
}  // namespace plateau::biloba::net
