// The port-8000 server against scripted clients sending the original's exact bytes
// (specs/biloba.md §11.6 transcript, §11.2 states, §11.7 fixed faults).
#include <filesystem>
#include <future>

#include "games/biloba/biloba_rules.h"
#include "net_test_util.h"
#include "compat/biloba/blb.h"
#include "compat/biloba/click_game.h"

namespace plateau::biloba::net {
namespace {

using namespace testing;
using namespace std::chrono_literals;

// The worked transcript of §11.6, byte for byte.
TEST(LegacyServer, WorkedTranscriptTwoPlayers) {
  LegacyServerOptions options = test_options();
  const auto dump = fresh_dump_dir("plateau-blb-transcript");
  options.dump_dir = dump.string();
  std::promise<FinishedLegacyGame> finished;
  options.on_finished = [&](const FinishedLegacyGame& g) { finished.set_value(g); };
  LegacyServerThread server(options);
  const unsigned short port = server.port();

  Connection a("127.0.0.1", port, 5s);
  a.send(Bytes{0x08, 'N', 'E', 'W', 'G', 'A', 'M', 'E', 0x00});
  expect_bytes(a, Bytes{0x03, 0x4F, 0x4B, 0x00});
  a.send(str("test game"));
  expect_bytes(a, Bytes{0x04, 0x00, 0x00, 0x00, 0x01});
  a.send(Bytes{0x10, 0x02, 0x00, 'A', 'l', 'i', 'c', 'e', 0x00, 0x01, 'R', 'e', 'm', 'o', 't', 'e',
               0x00});
  expect_bytes(a, Bytes{0x06, 0x52, 0x45, 0x41, 0x44, 0x59, 0x00});
  a.send(str("READY?"));
  expect_bytes(a, cat({i32(1), i32(0), str("Alice")}));

  Connection b("127.0.0.1", port, 5s);
  b.send(str("LISTGAME"));
  expect_bytes(b, str("NUMP"));
  b.send(i32(2));
  expect_bytes(b, cat({i32(1), i32(1), str("test game")}));
  b.send(cat({str("PRELJOIN"), i32(1)}));
  expect_bytes(b, cat({str("OK"), str("Alice"), Bytes{0x01, 0x00}, i32(2)}));
  b.send(cat({str("JOIN"), i32(1)}));
  expect_bytes(b, str("OK"));
  b.send(str("Bob"));
  b.send(str("READY?"));
  expect_bytes(b, cat({i32(0), i32(1), str("Bob"), str("Alice"), str("Bob")}));
  a.send(str("READY?"));
  expect_bytes(a, cat({i32(0), i32(1), str("Bob"), str("Alice"), str("Bob")}));

  Connection ta("127.0.0.1", port, 5s);
  ta.send(cat({str("TALK_MODE"), i32(1), i32(0)}));
  expect_bytes(ta, str("OK"));
  Connection tb("127.0.0.1", port, 5s);
  tb.send(cat({str("TALK_MODE"), i32(1), i32(1)}));
  expect_bytes(tb, str("OK"));
  ta.send(str("hello from Alice"));
  expect_bytes(ta, cat({i32(0), str("hello from Alice")}));  // the sender's echo
  expect_bytes(tb, cat({i32(0), str("hello from Alice")}));

  // Orange b6-b5 = (1,3) -> (1,4).
  a.send(Bytes{0x01, 0x70, 0x04, 0, 0, 0, 0, 0x04, 0, 0, 0, 1, 0x04, 0, 0, 0, 3});
  b.send(Bytes{0x01, 0x72, 0x04, 0, 0, 0, 0});
  expect_bytes(b, cat({i32(1), i32(3)}));
  b.send(cat({chr('r'), i32(0)}));
  a.send(cat({chr('p'), i32(0), i32(1), i32(4)}));
  expect_bytes(b, cat({i32(1), i32(4)}));
  // Blue h4-h5 = (7,5) -> (7,4).
  a.send(cat({chr('r'), i32(1)}));
  b.send(cat({chr('p'), i32(1), i32(7), i32(5)}));
  expect_bytes(a, cat({i32(7), i32(5)}));
  a.send(cat({chr('r'), i32(1)}));
  b.send(cat({chr('p'), i32(1), i32(7), i32(4)}));
  expect_bytes(a, cat({i32(7), i32(4)}));
  // Orange e6-e5-d5: three clicks.
  for (auto [x, y] : {std::pair{4, 3}, std::pair{4, 4}, std::pair{3, 4}}) {
    b.send(cat({chr('r'), i32(0)}));
    a.send(cat({chr('p'), i32(0), i32(x), i32(y)}));
    expect_bytes(b, cat({i32(x), i32(y)}));
  }
  // Orange quits while blue waits for it.
  b.send(cat({chr('r'), i32(0)}));
  a.send(Bytes{0x01, 0x71, 0x04, 0, 0, 0, 0});
  expect_bytes(b, Bytes{0x04, 0xFF, 0xFF, 0xFF, 0xFE, 0x04, 0xFF, 0xFF, 0xFF, 0xFE});
  a.close();
  b.close();
  ta.close();
  tb.close();

  auto future = finished.get_future();
  ASSERT_EQ(future.wait_for(5s), std::future_status::ready);
  const FinishedLegacyGame g = future.get();
  EXPECT_EQ(g.id, 1);
  EXPECT_EQ(g.seat_names, (std::vector<std::string>{"Alice", "Bob"}));
  EXPECT_FALSE(g.finished);
  // The server's replay of the clicks: three complete turns.
  EXPECT_NE(g.record.find("O:b6-b5 B:h4-h5 O:e6-e5-d5"), std::string::npos) << g.record;
  // The dump: 8 records, the last one (0, −2, −2).
  const BlbGame blb = read_blb_file((dump / "1-test game.blb").string());
  EXPECT_EQ(blb.names, (std::vector<std::string>{"Alice", "Bob"}));
  ASSERT_EQ(blb.records.size(), 8u);
  EXPECT_EQ(blb.records[0], (BlbRecord{0, 1, 3}));
  EXPECT_EQ(blb.records[7], (BlbRecord{0, -2, -2}));
  std::filesystem::remove_all(dump);
}

// Three players: spots 2 then 3, then no game listed; the READY? replies of §11.6.
TEST(LegacyServer, ThreePlayersSpotsAndReadySequence) {
  LegacyServerThread server(test_options());
  const unsigned short port = server.port();
  Connection a("127.0.0.1", port, 5s);
  a.send(str("NEWGAME"));
  expect_bytes(a, str("OK"));
  a.send(str("three"));
  expect_bytes(a, i32(1));
  Bytes details;
  put_raw(details, encode_details({{SeatType::kLocal, "Ann"},
                                   {SeatType::kNetwork, "Player 2"},
                                   {SeatType::kNetwork, "Player 3"}}));
  a.send(details);
  expect_bytes(a, str("READY"));
  a.send(str("READY?"));
  expect_bytes(a, cat({i32(2), i32(0), str("Ann")}));

  auto join = [&](Connection& c, int spot, const std::string& name,
                  std::vector<std::string> names) {
    c.send(str("LISTGAME"));
    expect_bytes(c, str("NUMP"));
    c.send(i32(3));
    expect_bytes(c, cat({i32(1), i32(1), str("three")}));
    c.send(cat({str("PRELJOIN"), i32(1)}));
    Bytes expected = str("OK");
    for (const auto& n : names) expected = cat({expected, str(n)});
    expect_bytes(c, cat({expected, i32(spot)}));
    c.send(cat({str("JOIN"), i32(spot - 1)}));
    expect_bytes(c, str("OK"));
    c.send(str(name));
  };
  Connection b("127.0.0.1", port, 5s);
  join(b, 2, "Bea", {"Ann", "", ""});
  b.send(str("READY?"));  // (also makes sure the server has read Bea's name)
  expect_bytes(b, cat({i32(1), i32(1), str("Bea")}));
  a.send(str("READY?"));
  expect_bytes(a, cat({i32(1), i32(1), str("Bea")}));
  Connection c("127.0.0.1", port, 5s);
  join(c, 3, "Cid", {"Ann", "Bea", ""});
  c.send(str("READY?"));
  expect_bytes(c, cat({i32(0), i32(2), str("Cid"), str("Ann"), str("Bea"), str("Cid")}));
  // A fourth client sees no game with a free spot.
  EXPECT_TRUE(list_games("127.0.0.1", port, 3).empty());
  for (Connection* conn : {&a, &b}) {
    conn->send(str("READY?"));
    expect_bytes(*conn, cat({i32(0), i32(2), str("Cid"), str("Ann"), str("Bea"), str("Cid")}));
  }
}

// Plateau's clients send names and chat in Latin-1 where they can, as the original's own
// clients do (its screens show Latin-1 bytes): "André" typed in UTF-8 goes out as "Andr\xE9".
TEST(LegacyServer, ClientsSendNamesAndChatInLatin1) {
  LegacyServerThread server(test_options());
  auto creator = LegacyClient::create("127.0.0.1", server.port(), "Partie d'Andr\xC3\xA9",
                                      {{SeatType::kLocal, "Andr\xC3\xA9"}, {SeatType::kNetwork, ""}});
  const auto games = list_games("127.0.0.1", server.port(), 2);
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].name, "Partie d'Andr\xE9");
  // A name with a character Latin-1 lacks goes out as typed (the euro sign).
  auto joiner = LegacyClient::join("127.0.0.1", server.port(), 2, creator.game_id(),
                                   "Zo\xC3\xAB \xE2\x82\xAC");
  EXPECT_EQ(joiner.offered_names(), (std::vector<std::string>{"Andr\xE9", ""}));
  const ReadyStatus ready = joiner.wait_ready(50ms, 5s);
  EXPECT_EQ(ready.names, (std::vector<std::string>{"Andr\xE9", "Zo\xC3\xAB \xE2\x82\xAC"}));
  creator.wait_ready(50ms, 5s);
  creator.open_chat();
  joiner.open_chat();
  creator.say("\xC3\xA7" "a va ?");
  std::optional<std::pair<int, std::string>> heard;
  for (int i = 0; i < 50 && !heard; ++i) heard = joiner.poll_chat(100ms);
  ASSERT_TRUE(heard);
  EXPECT_EQ(*heard, std::make_pair(0, std::string("\xE7" "a va ?")));
}

// §11.7: a JOIN for a seat that is not a free network seat is refused.
TEST(LegacyServer, JoinSeatIsValidated) {
  LegacyServerThread server(test_options());
  auto creator = LegacyClient::create("127.0.0.1", server.port(), "g",
                                      {{SeatType::kLocal, "A"}, {SeatType::kNetwork, ""}});
  for (int bad : {0, 2, 7, -1}) {
    Connection c("127.0.0.1", server.port(), 5s);
    c.send(str("LISTGAME"));
    expect_bytes(c, str("NUMP"));
    c.send(i32(2));
    expect_bytes(c, cat({i32(1), i32(1), str("g")}));
    c.send(cat({str("PRELJOIN"), i32(1)}));
    expect_bytes(c, cat({str("OK"), str("A"), str(""), i32(2)}));
    c.send(cat({str("JOIN"), i32(bad)}));
    expect_bytes(c, str("ERROR"));
  }
  // The seat is still free: a proper join works.
  auto joiner = LegacyClient::join("127.0.0.1", server.port(), 2, 1, "B");
  EXPECT_EQ(joiner.seat(), 1);
}

// §11.7: PRELJOIN on a full game answers ERROR1 (the original offered spot −1); so does an
// unknown id.
TEST(LegacyServer, PreljoinOnFullOrUnknownGameIsRefused) {
  LegacyServerThread server(test_options());
  auto creator = LegacyClient::create("127.0.0.1", server.port(), "g",
                                      {{SeatType::kLocal, "A"}, {SeatType::kNetwork, ""}});
  auto joiner = LegacyClient::join("127.0.0.1", server.port(), 2, 1, "B");
  for (int id : {1, 42}) {
    Connection c("127.0.0.1", server.port(), 5s);
    c.send(str("LISTGAME"));
    expect_bytes(c, str("NUMP"));
    c.send(i32(2));
    expect_bytes(c, i32(0));
    c.send(cat({str("PRELJOIN"), i32(id)}));
    expect_bytes(c, str("ERROR1"));
  }
}

// §11.7: a creator that has not polled READY? does not stall another client's LISTGAME.
TEST(LegacyServer, ListingDoesNotWaitForACreator) {
  LegacyServerThread server(test_options());
  auto creator = LegacyClient::create("127.0.0.1", server.port(), "slow",
                                      {{SeatType::kLocal, "A"}, {SeatType::kNetwork, ""}});
  const auto t0 = std::chrono::steady_clock::now();
  const auto games = list_games("127.0.0.1", server.port(), 2);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 1s);
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].name, "slow");
}

// §11.7: a client that quits while the server waits for a click for it ends the game; the
// game is removed instead of leaking.
TEST(LegacyServer, QuitWhileWaitedOnDoesNotLeakTheGame) {
  LegacyServerThread server(test_options());
  auto a = LegacyClient::create("127.0.0.1", server.port(), "g",
                                {{SeatType::kLocal, "A"}, {SeatType::kNetwork, ""}});
  auto b = LegacyClient::join("127.0.0.1", server.port(), 2, 1, "B");
  b.wait_ready(10ms, 5s);
  a.wait_ready(10ms, 5s);
  // Both wait for a click of seat 0... then both quit while the server waits for them.
  Connection& ca = a.connection();
  Connection& cb = b.connection();
  cb.send(cat({chr('r'), i32(0)}));
  ca.send(cat({chr('r'), i32(1)}));  // (a confused client waiting as well)
  std::this_thread::sleep_for(50ms);
  ca.send(cat({chr('q'), i32(0)}));
  // b receives (−2, −2) for the quit.
  expect_bytes(cb, cat({i32(-2), i32(-2)}));
  cb.send(cat({chr('q'), i32(1)}));
  a.close();
  b.close();
  EXPECT_TRUE(wait_no_games(server.server()));
}

// The same with a bare end-of-file while waited on.
TEST(LegacyServer, EndOfFileWhileWaitedOnEndsTheGame) {
  LegacyServerThread server(test_options());
  auto a = LegacyClient::create("127.0.0.1", server.port(), "g",
                                {{SeatType::kLocal, "A"}, {SeatType::kNetwork, ""}});
  auto b = LegacyClient::join("127.0.0.1", server.port(), 2, 1, "B");
  b.wait_ready(10ms, 5s);
  a.wait_ready(10ms, 5s);
  b.connection().send(cat({chr('r'), i32(0)}));
  a.connection().send(cat({chr('r'), i32(1)}));
  std::this_thread::sleep_for(50ms);
  a.close();
  expect_bytes(b.connection(), cat({i32(-2), i32(-2)}));
  b.close();
  EXPECT_TRUE(wait_no_games(server.server()));
}

// A creator that leaves before anyone joins: the game disappears from the list.
TEST(LegacyServer, AbandonedGameIsRemoved) {
  LegacyServerThread server(test_options());
  {
    auto a = LegacyClient::create("127.0.0.1", server.port(), "g",
                                  {{SeatType::kLocal, "A"}, {SeatType::kNetwork, ""}});
    a.close();
  }
  EXPECT_TRUE(wait_no_games(server.server()));
  EXPECT_TRUE(list_games("127.0.0.1", server.port(), 2).empty());
}

// Bad first commands, bad player details and silence are closed.
TEST(LegacyServer, BadInputIsRefused) {
  LegacyServerOptions options = test_options();
  options.new_timeout = 200ms;
  LegacyServerThread server(options);
  {
    Connection c("127.0.0.1", server.port(), 5s);
    c.send(str("HELLO"));
    EXPECT_THROW(c.read_bytes(1), std::exception);  // closed
  }
  {
    Connection c("127.0.0.1", server.port(), 5s);
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_THROW(c.read_bytes(1), std::exception);  // silent: closed after the NEW timeout
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 3s);
  }
  for (Bytes details : {Bytes{0x05, 0x00, 'A', 0x00}, Bytes{0x02, 0x00, 'A', 0x00, 0x07, 0x00},
                        Bytes{0x02, 0x00, 'A', 0x00, 0x00, 'B', 0x00}}) {
    Connection c("127.0.0.1", server.port(), 5s);
    c.send(str("NEWGAME"));
    expect_bytes(c, str("OK"));
    c.send(str("x"));
    c.read_bytes(5);
    Bytes framed;
    put_raw(framed, details);
    c.send(framed);
    expect_bytes(c, str("ERROR"));
  }
  EXPECT_TRUE(wait_no_games(server.server()));
}

}  // namespace
}  // namespace plateau::biloba::net
