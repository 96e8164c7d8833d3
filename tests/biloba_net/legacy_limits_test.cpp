// The port-8000 server's edges (issue 12): names arrive as Latin-1 bytes and leave as UTF-8 for
// the lobby and the record while the .blb keeps the wire bytes; a game's click history is
// bounded (LegacyServerOptions::max_clicks); connections can be refused (admit).
#include <filesystem>
#include <future>

#include "net_test_util.h"
#include "compat/biloba/blb.h"

namespace plateau::biloba::net {
namespace {

using namespace testing;
using namespace std::chrono_literals;

// Creator "Andr\xe9" (Latin-1 for "André") on seat 0 of game `game_name`, "Bob" joined on
// seat 1; both past READY?.
void set_up_game(Connection& a, Connection& b, const std::string& game_name) {
  a.send(str("NEWGAME"));
  expect_bytes(a, str("OK"));
  a.send(str(game_name));
  a.read_bytes(5);  // the id
  a.send(Bytes{0x10, 0x02, 0x00, 'A', 'n', 'd', 'r', 0xE9, 0x00, 0x01, 'R', 'e', 'm', 'o', 't', 'e',
               0x00});
  expect_bytes(a, str("READY"));
  b.send(str("LISTGAME"));
  expect_bytes(b, str("NUMP"));
  b.send(i32(2));
  expect_bytes(b, cat({i32(1), i32(1), str(game_name)}));
  b.send(cat({str("PRELJOIN"), i32(1)}));
  // The other clients get the name as it was sent.
  expect_bytes(b, cat({str("OK"), str("Andr\xe9"), str(""), i32(2)}));
  b.send(cat({str("JOIN"), i32(1)}));
  expect_bytes(b, str("OK"));
  b.send(str("Bob"));
  const Bytes ready = cat({i32(0), i32(1), str("Bob"), str("Andr\xe9"), str("Bob")});
  b.send(str("READY?"));
  expect_bytes(b, ready);
  a.send(str("READY?"));
  expect_bytes(a, ready);
}

// One click of `seat` at (x, y), sent by `from` and relayed to `to`.
void relay(Connection& from, Connection& to, int seat, int x, int y) {
  to.send(cat({chr('r'), i32(seat)}));
  from.send(cat({chr('p'), i32(seat), i32(x), i32(y)}));
  expect_bytes(to, cat({i32(x), i32(y)}));
}

TEST(LegacyLimits, Latin1NamesAreDecodedForTheLobbyAndKeptInTheDump) {
  LegacyServerOptions options = test_options();
  const auto dump = fresh_dump_dir("plateau-blb-latin1");
  options.dump_dir = dump.string();
  std::promise<FinishedLegacyGame> finished;
  options.on_finished = [&](const FinishedLegacyGame& g) { finished.set_value(g); };
  LegacyServerThread server(options);
  {
    Connection a("127.0.0.1", server.port(), 5s);
    Connection b("127.0.0.1", server.port(), 5s);
    set_up_game(a, b, "caf\xe9");
    relay(a, b, 0, 1, 3);  // orange b6-b5
    relay(a, b, 0, 1, 4);
    relay(b, a, 1, 7, 5);  // blue h4-h5
    relay(b, a, 1, 7, 4);
    b.send(cat({chr('r'), i32(0)}));
    a.send(Bytes{0x01, 0x71, 0x04, 0, 0, 0, 0});  // orange quits
    expect_bytes(b, Bytes{0x04, 0xFF, 0xFF, 0xFF, 0xFE, 0x04, 0xFF, 0xFF, 0xFF, 0xFE});
  }
  auto future = finished.get_future();
  ASSERT_EQ(future.wait_for(5s), std::future_status::ready);
  const FinishedLegacyGame g = future.get();
  EXPECT_EQ(g.name, "caf\xe9");
  EXPECT_EQ(g.display_name, "caf\xc3\xa9");
  EXPECT_EQ(g.seat_names, (std::vector<std::string>{"Andr\xc3\xa9", "Bob"}));
  EXPECT_NE(g.record.find("[Seats \"Andr\xc3\xa9,Bob\"]"), std::string::npos) << g.record;
  EXPECT_NE(g.record.find("network game 1 \\\"caf\xc3\xa9\\\""), std::string::npos) << g.record;
  EXPECT_FALSE(g.click_limit);
  const BlbGame blb = read_blb_file((dump / "1-caf\xe9.blb").string());
  EXPECT_EQ(blb.names, (std::vector<std::string>{"Andr\xe9", "Bob"}));
  std::filesystem::remove_all(dump);
}

TEST(LegacyLimits, AGameReachingTheClickLimitEndsWithoutAResult) {
  LegacyServerOptions options = test_options();
  options.max_clicks = 4;
  std::promise<FinishedLegacyGame> finished;
  options.on_finished = [&](const FinishedLegacyGame& g) { finished.set_value(g); };
  LegacyServerThread server(options);
  Connection a("127.0.0.1", server.port(), 5s);
  Connection b("127.0.0.1", server.port(), 5s);
  set_up_game(a, b, "long game");
  relay(a, b, 0, 1, 3);
  relay(a, b, 0, 1, 4);
  relay(b, a, 1, 7, 5);
  relay(b, a, 1, 7, 4);  // the 4th click: still delivered, then the game is over
  // Both connections are closed: orange's next wait gets no answer.
  EXPECT_THROW(
      {
        a.send(cat({chr('r'), i32(1)}));
        a.read_bytes(1);
      },
      std::exception);  // closed
  auto future = finished.get_future();
  ASSERT_EQ(future.wait_for(5s), std::future_status::ready);
  const FinishedLegacyGame g = future.get();
  EXPECT_TRUE(g.click_limit);
  EXPECT_FALSE(g.finished);
  EXPECT_EQ(g.clicks.records.size(), 4u);
  EXPECT_EQ(g.moves, (std::vector<std::string>{"b6-b5", "h4-h5"}));
  EXPECT_TRUE(wait_no_games(server.server()));
}

TEST(LegacyLimits, RefusedConnectionsAreClosedAtOnce) {
  LegacyServerOptions options = test_options();
  int asked = 0;
  options.admit = [&](const std::string& address) -> std::shared_ptr<const void> {
    EXPECT_EQ(address, "127.0.0.1");
    return ++asked == 1 ? std::make_shared<int>(0) : nullptr;
  };
  LegacyServerThread server(options);
  Connection first("127.0.0.1", server.port(), 5s);
  first.send(str("LISTGAME"));
  expect_bytes(first, str("NUMP"));
  Connection second("127.0.0.1", server.port(), 5s);
  second.send(str("LISTGAME"));
  EXPECT_THROW(second.read_bytes(1), std::exception);  // closed without an answer
}

}  // namespace
}  // namespace plateau::biloba::net
