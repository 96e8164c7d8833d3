// Interoperability with Debian's own biloba 0.9.3 (package `biloba`, /usr/games/biloba-server):
// our `biloba` client plays a golden game through the original server, and our protocol
// client library plays a 4-player golden game through it; the original's .blb dumps read back
// with our reader. The original server always listens on TCP 8000, so the test moves itself
// into a private network namespace (loopback only) when it can; otherwise it needs port 8000
// free on 127.0.0.1. Skips with a message when biloba-server is not installed.
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>

#include "games/biloba/biloba_rules.h"
#include "net_test_util.h"
#include "process_util.h"
#include "compat/biloba/blb.h"
#include "compat/biloba/click_game.h"

extern char** environ;

namespace plateau::biloba::net {
namespace {

using namespace testing;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

const char* const kOriginalServer = "/usr/games/biloba-server";
constexpr unsigned short kOriginalPort = 8000;

// Moves this process into a new network namespace with loopback up (needs CAP_SYS_ADMIN).
bool private_network() {
  static int state = -1;
  if (state >= 0) return state == 1;
  state = 0;
  if (::unshare(CLONE_NEWNET) != 0) return false;
  const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  ifreq ifr{};
  std::strncpy(ifr.ifr_name, "lo", IFNAMSIZ - 1);
  if (fd >= 0 && ::ioctl(fd, SIOCGIFFLAGS, &ifr) == 0) {
    ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
    if (::ioctl(fd, SIOCSIFFLAGS, &ifr) == 0) state = 1;
  }
  if (fd >= 0) ::close(fd);
  return state == 1;
}

bool port_free(unsigned short port) {
  try {
    boost::asio::io_context io;
    boost::asio::ip::tcp::acceptor a(
        io, boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

class Interop : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kOriginalServer)) {
      GTEST_SKIP() << kOriginalServer << " is missing: install Debian's biloba package "
                   << "(scripts/install-deps.sh) to run the interoperability tests";
    }
    if (!private_network() && !port_free(kOriginalPort)) {
      GTEST_SKIP() << "no private network namespace and port 8000 is taken";
    }
    dir_ = fs::temp_directory_path() / ("plateau-interop-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "dump");
    server_ = std::make_unique<Child>(
        std::vector<std::string>{kOriginalServer, (dir_ / "server.log").string(),
                                 (dir_ / "dump").string()},
        dir_ / "server.out");
    ASSERT_TRUE(server_->started());
    // Ready when it lists games (a LISTGAME answer).
    const auto end = std::chrono::steady_clock::now() + 5s;
    bool up = false;
    while (!up && std::chrono::steady_clock::now() < end) {
      try {
        list_games("127.0.0.1", kOriginalPort, 2);
        up = true;
      } catch (const std::exception&) {
        std::this_thread::sleep_for(50ms);
      }
    }
    ASSERT_TRUE(up) << "the original server did not start: " << slurp(dir_ / "server.out");
  }
  void TearDown() override {
    server_.reset();
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  // Waits for the original's dump of game `id` and reads it.
  BlbGame dump(int id, const std::string& name) {
    const fs::path path = dir_ / "dump" / dump_file_name(id, name);
    for (int i = 0; i < 250 && !fs::exists(path); ++i) std::this_thread::sleep_for(20ms);
    std::this_thread::sleep_for(100ms);  // let it finish writing
    return read_blb_file(path.string());
  }

  fs::path dir_;
  std::unique_ptr<Child> server_;
};

// Our `biloba` command, twice (creator and joiner), plays golden game random-2p-0081 (with
// ignored and deselecting clicks) through the original server.
TEST_F(Interop, OurBilobaClientPlaysAGoldenGameThroughTheOriginalServer) {
  const auto rec = golden("random_2p.jsonl.gz", "random-2p-0081");
  ASSERT_FALSE(rec.is_null());
  std::string seat_clicks[2];
  for (const auto& c : golden_clicks(rec)) {
    seat_clicks[c.seat] += square_name(square_of(c.x, c.y)) + "\n";
  }
  for (int s = 0; s < 2; ++s) std::ofstream(dir_ / ("seat" + std::to_string(s))) << seat_clicks[s];
  Child creator({BILOBA_EXE, "127.0.0.1", "--create", "golden", "--name", "Alice", "--clicks",
                 (dir_ / "seat0").string(), "-q", "--save", (dir_ / "alice.blb").string()},
                dir_ / "alice.out");
  const auto end = std::chrono::steady_clock::now() + 10s;
  while (list_games("127.0.0.1", kOriginalPort, 2).empty() &&
         std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(50ms);
  }
  Child joiner({BILOBA_EXE, "127.0.0.1", "--join", "1", "--name", "Bob", "--clicks",
                (dir_ / "seat1").string(), "-q"},
               dir_ / "bob.out");
  EXPECT_EQ(creator.wait(60s), 0) << slurp(dir_ / "alice.out");
  EXPECT_EQ(joiner.wait(20s), 0) << slurp(dir_ / "bob.out");
  const std::string golden_board = rec["final_board"];
  for (const char* who : {"alice.out", "bob.out"}) {
    const std::string out = slurp(dir_ / who);
    EXPECT_NE(out.find("Bob wins !"), std::string::npos) << who << ":\n" << out;
    EXPECT_EQ(printed_board(out), golden_board) << who;
  }
  // The client's SAVE LAST GAME file and the original server's dump replay to the same end.
  const GameOutcome mine = replay_game(read_blb_file((dir_ / "alice.blb").string()), 0ms);
  EXPECT_EQ(board81(mine.final_board), golden_board);
  const BlbGame original = dump(1, "golden");
  EXPECT_EQ(original.names, (std::vector<std::string>{"Alice", "Bob"}));
  EXPECT_EQ(original.records.size(), golden_clicks(rec).size());
  const GameOutcome replayed = replay_game(original, 0ms);
  EXPECT_TRUE(replayed.finished);
  EXPECT_EQ(board81(replayed.final_board), golden_board);
}

// Our protocol library, one client per seat, plays the 3-player golden game ai-3p-0043
// through the original server (2 joiners, spots 2 and 3), with chat.
TEST_F(Interop, ThreeClientsPlayAGoldenGameThroughTheOriginalServer) {
  const auto rec = golden("ai_3p.jsonl.gz", "ai-3p-0043");
  constexpr int kPlayers = 3;
  ASSERT_FALSE(rec.is_null());
  std::vector<std::vector<int>> per_seat(kPlayers);
  for (const auto& c : golden_clicks(rec)) per_seat[c.seat].push_back(square_of(c.x, c.y));
  // Each client starts polling READY? at once: the original holds a global lock until its
  // creator polls, which would stall the next LISTGAME (the fault Plateau's server fixes).
  std::vector<std::unique_ptr<LegacyClient>> clients(kPlayers);
  std::vector<std::future<GameOutcome>> results;
  auto play = [&](int s) {
    return std::async(std::launch::async, [&, s]() {
      LegacyClient& client = *clients[s];
      client.connection().set_timeout(30s);
      const ReadyStatus ready = client.wait_ready(200ms, 20s);
      client.open_chat();
      if (s == 0) client.say("hello from Ann");
      ScriptInput input(per_seat[s]);
      return play_network_game(client, ready.names, {{s, &input}});
    });
  };
  clients[0] = std::make_unique<LegacyClient>(LegacyClient::create(
      "127.0.0.1", kOriginalPort, "four",
      {{SeatType::kLocal, "Ann"}, {SeatType::kNetwork, "Player 2"},
       {SeatType::kNetwork, "Player 3"}}));
  results.push_back(play(0));
  for (int s = 1; s < kPlayers; ++s) {
    clients[s] = std::make_unique<LegacyClient>(LegacyClient::join(
        "127.0.0.1", kOriginalPort, kPlayers, 1, "P" + std::to_string(s + 1)));
    ASSERT_EQ(clients[s]->seat(), s);
    results.push_back(play(s));
  }
  for (int s = 0; s < kPlayers; ++s) {
    ASSERT_EQ(results[s].wait_for(60s), std::future_status::ready);
    const GameOutcome out = results[s].get();
    EXPECT_TRUE(out.finished);
    EXPECT_EQ(board81(out.final_board), rec["final_board"].get<std::string>()) << "seat " << s;
  }
  const BlbGame original = dump(1, "four");
  EXPECT_EQ(board81(replay_game(original, 0ms).final_board),
            rec["final_board"].get<std::string>());
}

}  // namespace
}  // namespace plateau::biloba::net
