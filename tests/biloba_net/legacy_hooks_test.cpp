// The legacy server's live hooks (on_started, on_turn, on_chat) and LegacyServer::say, with which
// `plateau serve` mirrors each game as a lobby table (compat/biloba/legacy_lobby.h). The bytes
// the clients get are the original's.
#include <condition_variable>
#include <mutex>
#include <thread>

#include "compat/biloba/legacy_state.h"
#include "net_test_util.h"

namespace plateau::biloba::net {
namespace {

using namespace testing;
using namespace std::chrono_literals;

// What the hooks reported, from the server's thread.
struct Heard {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<StartedLegacyGame> started;
  std::vector<std::string> turns;  // "id ply move"
  std::vector<std::string> chat;   // "id seat text"

  void add(std::vector<std::string>& list, std::string line) {
    std::lock_guard lock(mutex);
    list.push_back(std::move(line));
    changed.notify_all();
  }
  // Waits until `list` has `n` entries; returns a copy.
  std::vector<std::string> wait(std::vector<std::string>& list, std::size_t n) {
    std::unique_lock lock(mutex);
    changed.wait_for(lock, 5s, [&] { return list.size() >= n; });
    return list;
  }
};

// Alice creates the game "live" (id 1) on `a`, Zöe joins it on `b`: both are told it starts.
void start_live_game(Connection& a, Connection& b) {
  a.send(str("NEWGAME"));
  expect_bytes(a, str("OK"));
  a.send(str("live"));
  expect_bytes(a, i32(1));
  a.send(Bytes{0x10, 0x02, 0x00, 'A', 'l', 'i', 'c', 'e', 0x00, 0x01, 'R', 'e', 'm', 'o', 't', 'e',
               0x00});
  expect_bytes(a, str("READY"));
  b.send(str("LISTGAME"));
  expect_bytes(b, str("NUMP"));
  b.send(i32(2));
  expect_bytes(b, cat({i32(1), i32(1), str("live")}));
  b.send(cat({str("PRELJOIN"), i32(1), str("JOIN"), i32(1)}));
  expect_bytes(b, cat({str("OK"), str("Alice"), Bytes{0x01, 0x00}, i32(2), str("OK")}));
  b.send(cat({str("Z\xF6\x65"), str("READY?")}));  // "Zöe" in Latin-1
  expect_bytes(b, cat({i32(0), i32(1), str("Z\xF6\x65"), str("Alice"), str("Z\xF6\x65")}));
  a.send(str("READY?"));
  expect_bytes(a, cat({i32(0), i32(1), str("Z\xF6\x65"), str("Alice"), str("Z\xF6\x65")}));
}

TEST(LegacyHooks, StartTurnsAndChatBothWays) {
  Heard heard;
  LegacyServerOptions options = test_options();
  options.on_started = [&](const StartedLegacyGame& g) {
    std::lock_guard lock(heard.mutex);
    heard.started.push_back(g);
    heard.changed.notify_all();
  };
  options.on_turn = [&](int id, int ply, const std::string& move) {
    heard.add(heard.turns, std::to_string(id) + " " + std::to_string(ply) + " " + move);
  };
  options.on_chat = [&](int id, int seat, const std::string& text) {
    heard.add(heard.chat, std::to_string(id) + " " + std::to_string(seat) + " " + text);
  };
  LegacyServerThread server(options);
  const unsigned short port = server.port();

  Connection a("127.0.0.1", port, 5s);
  Connection b("127.0.0.1", port, 5s);
  start_live_game(a, b);
  {
    std::unique_lock lock(heard.mutex);
    heard.changed.wait_for(lock, 5s, [&] { return !heard.started.empty(); });
    ASSERT_EQ(heard.started.size(), 1u);
    const StartedLegacyGame& g = heard.started[0];
    EXPECT_EQ(g.id, 1);
    EXPECT_EQ(g.display_name, "live");
    EXPECT_EQ(g.seat_names, (std::vector<std::string>{"Alice", "Zöe"}));
    EXPECT_EQ(g.cpu, (std::vector<bool>{false, false}));
    EXPECT_EQ(g.game_spec.rfind("biloba(", 0), 0u) << g.game_spec;
  }

  Connection ta("127.0.0.1", port, 5s);
  ta.send(cat({str("TALK_MODE"), i32(1), i32(0)}));
  expect_bytes(ta, str("OK"));
  Connection tb("127.0.0.1", port, 5s);
  tb.send(cat({str("TALK_MODE"), i32(1), i32(1)}));
  expect_bytes(tb, str("OK"));
  tb.send(str("hi \xE0 all"));  // "hi à all"
  expect_bytes(ta, cat({i32(1), str("hi \xE0 all")}));
  expect_bytes(tb, cat({i32(1), str("hi \xE0 all")}));
  EXPECT_EQ(heard.wait(heard.chat, 1), (std::vector<std::string>{"1 1 hi à all"}));
  // A line from outside: in Latin-1 ('?' for what it cannot say), as from another seat than
  // the receiver's own (the original client hides its own seat's lines).
  server.server().say(1, "carol: é€");
  expect_bytes(ta, cat({i32(1), str("carol: \xE9?")}));
  expect_bytes(tb, cat({i32(0), str("carol: \xE9?")}));
  server.server().say(99, "nobody hears this");

  // Orange b6-b5, blue h4-h5, orange e6-e5-d5: each turn reported once complete.
  auto click = [&](Connection& from, Connection& to, int seat, int x, int y) {
    to.send(cat({chr('r'), i32(seat)}));
    from.send(cat({chr('p'), i32(seat), i32(x), i32(y)}));
    expect_bytes(to, cat({i32(x), i32(y)}));
  };
  click(a, b, 0, 1, 3);
  click(a, b, 0, 1, 4);
  click(b, a, 1, 7, 5);
  click(b, a, 1, 7, 4);
  click(a, b, 0, 4, 3);
  click(a, b, 0, 4, 4);
  EXPECT_EQ(heard.wait(heard.turns, 2), (std::vector<std::string>{"1 1 b6-b5", "1 2 h4-h5"}));
  click(a, b, 0, 3, 4);
  EXPECT_EQ(heard.wait(heard.turns, 3),
            (std::vector<std::string>{"1 1 b6-b5", "1 2 h4-h5", "1 3 e6-e5-d5"}));
  a.close();
  b.close();
  ta.close();
  tb.close();
  EXPECT_TRUE(wait_no_games(server.server()));
}

// A client that talks without end: past detail::kMaxChatLines a line is dropped for everyone, and
// no longer reported either (each report is a stored chat row of the game's lobby table).
TEST(LegacyHooks, ChatPastTheBoundIsNeitherRelayedNorReported) {
  Heard heard;
  LegacyServerOptions options = test_options();
  options.on_chat = [&](int id, int seat, const std::string& text) {
    heard.add(heard.chat, std::to_string(id) + " " + std::to_string(seat) + " " + text);
  };
  LegacyServerThread server(options);
  Connection a("127.0.0.1", server.port(), 5s);
  Connection b("127.0.0.1", server.port(), 5s);
  start_live_game(a, b);
  Connection tb("127.0.0.1", server.port(), 5s);
  tb.send(cat({str("TALK_MODE"), i32(1), i32(1)}));
  expect_bytes(tb, str("OK"));
  const Bytes line = str("spam");
  Bytes flood;
  for (std::size_t i = 0; i < detail::kMaxChatLines + 50; ++i)
    flood.insert(flood.end(), line.begin(), line.end());
  tb.send(flood);
  EXPECT_EQ(heard.wait(heard.chat, detail::kMaxChatLines).size(), detail::kMaxChatLines);
  std::this_thread::sleep_for(300ms);  // the 50 lines past the bound have been read by now
  const auto chat = heard.wait(heard.chat, detail::kMaxChatLines);
  EXPECT_EQ(chat.size(), detail::kMaxChatLines);
  EXPECT_EQ(chat.back(), "1 1 spam");
}

}  // namespace
}  // namespace plateau::biloba::net
