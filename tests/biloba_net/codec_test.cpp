// Exact bytes of the framing (specs/biloba.md §11.1, §11.3), the .blb file (§13) and the
// discovery datagram (§12); LAN discovery over loopback.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/error.h"
#include "compat/biloba/blb.h"
#include "compat/biloba/click_game.h"
#include "compat/biloba/discovery.h"
#include "compat/biloba/wire.h"

namespace plateau::biloba::net {
namespace {

TEST(Wire, PrimitivesAsInTheSpec) {
  Bytes b;
  put_string(b, "OK");
  EXPECT_EQ(hex(b), "03 4F 4B 00");
  b.clear();
  put_int(b, 2);
  EXPECT_EQ(hex(b), "04 00 00 00 02");
  b.clear();
  put_int(b, -2);
  EXPECT_EQ(hex(b), "04 FF FF FF FE");
  b.clear();
  put_char(b, 'p');
  EXPECT_EQ(hex(b), "01 70");
  EXPECT_EQ(decode_int(Bytes{0xFF, 0xFF, 0xFF, 0xFE}), -2);
  EXPECT_EQ(decode_string(Bytes{'N', 'U', 'M', 'P', 0}), "NUMP");
  EXPECT_THROW(decode_int(Bytes{0, 0, 2}), ProtocolError);
  EXPECT_THROW(decode_char(Bytes{}), ProtocolError);
  EXPECT_THROW(put_string(b, std::string(255, 'a')), ProtocolError);
  b.clear();
  put_string(b, std::string(254, 'a'));
  EXPECT_EQ(b.size(), 256u);
  EXPECT_EQ(b[0], 255);
}

TEST(Wire, PlayerDetailsExampleOfTheSpec) {
  const Bytes payload =
      encode_details({{SeatType::kLocal, "Gina"}, {SeatType::kNetwork, "Player 2"}});
  Bytes framed;
  put_raw(framed, payload);
  EXPECT_EQ(hex(framed),
            "11 02 00 47 69 6E 61 00 01 50 6C 61 79 65 72 20 32 00");
  const auto seats = decode_details(payload);
  ASSERT_EQ(seats.size(), 2u);
  EXPECT_EQ(seats[0].type, SeatType::kLocal);
  EXPECT_EQ(seats[0].name, "Gina");
  EXPECT_EQ(seats[1].type, SeatType::kNetwork);
  EXPECT_EQ(seats[1].name, "Player 2");
  EXPECT_THROW(decode_details(Bytes{0}), ProtocolError);                 // 0 players
  EXPECT_THROW(decode_details(Bytes{5, 0, 0}), ProtocolError);           // 5 players
  EXPECT_THROW(decode_details(Bytes{1, 4, 'A', 0}), ProtocolError);      // type 4
  EXPECT_THROW(decode_details(Bytes{2, 0, 'A', 0, 1, 'B'}), ProtocolError);  // no NUL
}

TEST(Blb, ExactBytesAndRoundTrip) {
  BlbGame g;
  g.names = {"Al", ""};
  g.records = {{0, 1, 3}, {1, -2, -2}};
  const std::string bytes = encode_blb(g);
  const std::string expected = std::string("Biloba-game-dump") + std::string("\1\0\0\0", 4) +
                               std::string("\2\0\0\0", 4) + std::string("\2\0\0\0Al", 6) +
                               std::string("\0\0\0\0", 4) + std::string("\0\0\0\0\1\0\0\0\3\0\0\0", 12) +
                               std::string("\1\0\0\0\xFE\xFF\xFF\xFF\xFE\xFF\xFF\xFF", 12);
  EXPECT_EQ(bytes, expected);
  const BlbGame back = decode_blb(bytes);
  EXPECT_EQ(back.names, g.names);
  EXPECT_EQ(back.records, g.records);
}

TEST(Blb, RejectsBadFiles) {
  BlbGame g;
  g.names = {"A", "B"};
  g.records = {{0, 1, 3}};
  const std::string good = encode_blb(g);
  EXPECT_THROW(decode_blb("Biloba-game-dumX" + good.substr(16)), RecordError);
  std::string v2 = good;
  v2[16] = 2;
  EXPECT_THROW(decode_blb(v2), RecordError);
  std::string five = good;
  five[20] = 5;
  EXPECT_THROW(decode_blb(five), RecordError);
  std::string long_name = good;
  long_name[24] = 0;  // length 512 = 0x200
  long_name[25] = 2;
  EXPECT_THROW(decode_blb(long_name), RecordError);
  EXPECT_THROW(decode_blb(good.substr(0, good.size() - 1)), RecordError);  // partial record
  BlbGame off = g;
  off.records = {{0, 9, 0}};
  EXPECT_THROW(decode_blb(encode_blb(off)), RecordError);
  off.records = {{2, 1, 1}};
  EXPECT_THROW(decode_blb(encode_blb(off)), RecordError);
  off.records = {{0, -1, -1}, {1, -2, -2}};
  EXPECT_NO_THROW(decode_blb(encode_blb(off)));
  EXPECT_EQ(dump_file_name(3, "a/b c"), "3-a_b c.blb");
}

// The reader of §13: (−1, −1) is skipped; a record for another seat acts as "<name> leaves"
// and empties the board.
TEST(Blb, ReplaySemantics) {
  BlbGame g;
  g.names = {"Ann", "Bob"};
  g.records = {{0, 1, 3}, {0, -1, -1}, {0, 1, 4}, {0, 7, 5}};  // the last is for the wrong seat
  const GameOutcome out = replay_game(g, std::chrono::milliseconds(0));
  EXPECT_FALSE(out.finished);
  EXPECT_EQ(out.left_seat, 1);
  EXPECT_EQ(out.message, "Bob leaves");
  EXPECT_EQ(out.turns.size(), 1u);
  EXPECT_EQ(out.final_board.count[0] + out.final_board.count[1], 0);
}

TEST(Discovery, DatagramOfTheSpec) {
  const std::string d = announcement(1804289383);
  ASSERT_EQ(d.size(), 39u);
  EXPECT_EQ(d, std::string("Biloba") + std::string(22, ' ') + "1804289383" + std::string(1, '\0'));
  EXPECT_TRUE(is_announcement(d));
  EXPECT_FALSE(is_announcement(d.substr(0, 38)));
  EXPECT_FALSE(is_announcement("Bilobb" + d.substr(6)));
}

TEST(Discovery, FindsAnAnnouncerOnLoopback) {
  const unsigned short port = 28001;  // a test port, loopback only
  Announcer own(7, "127.0.0.1", port, std::chrono::milliseconds(50));
  Announcer other(8, "127.0.0.1", port, std::chrono::milliseconds(50));
  std::vector<DiscoveredServer> found;
  try {
    found = scan_servers(std::chrono::milliseconds(400), port, other.datagram());
  } catch (const std::system_error& e) {
    GTEST_SKIP() << "cannot bind UDP " << port << ": " << e.what();
  }
  // Both announcers send from 127.0.0.1; our own datagram is filtered but the other's is not.
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].address, "127.0.0.1");
  EXPECT_FALSE(found[0].host.empty());
}

}  // namespace
}  // namespace plateau::biloba::net
