// A Plateau CPU seat in a legacy game thinks on the worker pool (LegacyServerOptions::
// cpu_executor), never on the server's strand: while its pool is busy the seat makes no click
// and the server still answers at once; once the pool is free the seat plays.
#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <chrono>
#include <future>
#include <stdexcept>
#include <thread>

#include "compat/biloba/click_player.h"
#include "games/biloba/biloba_board.h"
#include "games/biloba/biloba_clicks.h"
#include "games/biloba/biloba_rules.h"
#include "net_test_util.h"

namespace plateau::biloba::net {
namespace {

using namespace testing;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

int clicks_of(LegacyServer& server) {
  const auto games = server.games();
  return games.size() == 1 ? games[0].clicks : -1;
}

TEST(CpuSeat, ThinksOnTheWorkerPoolNeverOnTheServersStrand) {
  boost::asio::thread_pool pool(1);
  std::promise<void> gate;
  std::shared_future<void> open = gate.get_future().share();
  boost::asio::post(pool, [open] { open.wait(); });  // the pool's only thread is busy

  LegacyServerOptions options = test_options();
  options.cpu_bot = "random";
  options.cpu_executor = pool.get_executor();
  LegacyServerThread server(options);
  auto client = LegacyClient::create("127.0.0.1", server.port(), "vs cpu",
                                     {{SeatType::kLocal, "Human"}, {SeatType::kAi, "Plateau"}});
  client.connection().set_timeout(10s);
  client.wait_ready(5ms, 5s);

  // Seat 0 (ours) plays its first turn; then the CPU seat is asked.
  const Position start = start_position(2);
  ClickMachine machine(start, false);
  ClickPlayer me("random", 3, start);
  int sent = 0;
  while (machine.asked() == 0) {
    const int square = me.next_click(machine);
    ASSERT_GE(square, 0);
    client.send_click(0, x_of(square), y_of(square));
    machine.click(x_of(square), y_of(square));
    ++sent;
  }
  ASSERT_EQ(machine.asked(), 1);
  const auto deadline = Clock::now() + 5s;
  while (clicks_of(server.server()) < sent && Clock::now() < deadline) {
    std::this_thread::sleep_for(5ms);
  }
  ASSERT_EQ(clicks_of(server.server()), sent);

  // The seat's bot waits for the pool: no click, and the strand answers at once meanwhile.
  std::this_thread::sleep_for(200ms);
  const auto asked_at = Clock::now();
  EXPECT_EQ(clicks_of(server.server()), sent);
  EXPECT_LT(Clock::now() - asked_at, 500ms);

  gate.set_value();
  while (clicks_of(server.server()) == sent && Clock::now() < deadline + 5s) {
    std::this_thread::sleep_for(5ms);
  }
  EXPECT_GT(clicks_of(server.server()), sent);
  const auto [x, y] = client.receive_click(1);  // the CPU's first click reaches us
  EXPECT_GE(x, 0);
  EXPECT_GE(y, 0);

  // Leave, and let the pool finish before the server goes: a bot's answer is posted to it.
  client.quit({0});
  EXPECT_TRUE(wait_no_games(server.server()));
  pool.join();
}

TEST(CpuSeat, ALegacyServerWithoutACpuExecutorIsRefused) {
  boost::asio::io_context io;
  LegacyServerOptions options = test_options();
  EXPECT_THROW(LegacyServer(io.get_executor(), options), std::invalid_argument);
}

}  // namespace
}  // namespace plateau::biloba::net
