#include <gtest/gtest.h>

#include "server/game_clock.h"

namespace plateau::server {
namespace {

TEST(GameClock, ParsesTheThreeForms) {
  EXPECT_EQ(parse_clock("none").mode, ClockSettings::Mode::kNone);
  ClockSettings m = parse_clock("move:60");
  EXPECT_EQ(m.mode, ClockSettings::Mode::kPerMove);
  EXPECT_EQ(m.base_ms, 60000);
  ClockSettings f = parse_clock("Fischer:300+5");
  EXPECT_EQ(f.mode, ClockSettings::Mode::kFischer);
  EXPECT_EQ(f.base_ms, 300000);
  EXPECT_EQ(f.increment_ms, 5000);
  EXPECT_EQ(f.to_string(), "fischer:300+5");
  EXPECT_EQ(m.to_string(), "move:60");
  EXPECT_EQ(parse_clock("fischer:90").increment_ms, 0);
}

TEST(GameClock, RejectsBadForms) {
  for (const char* bad : {"", "fast", "move:", "move:0", "move:-5", "fischer:10+x", "fischer:+5",
                          "move:99999999999", "fischer:10+100000"}) {
    EXPECT_THROW(parse_clock(bad), std::invalid_argument) << bad;
  }
}

TEST(GameClock, BanksAfterMoves) {
  ClockSettings f = parse_clock("fischer:300+5");
  EXPECT_EQ(bank_after_move(f, 300000, 12000), 293000);
  EXPECT_EQ(turn_allowance_ms(f, 293000), 293000);
  ClockSettings m = parse_clock("move:60");
  EXPECT_EQ(bank_after_move(m, 60000, 59000), 60000);
  EXPECT_EQ(turn_allowance_ms(m, 12), 60000);
}

TEST(GameClock, TimeLeftForTheDisplay) {
  ClockSettings f = parse_clock("fischer:300+5");
  // The seat to move has used 12.5 s of its 293 s bank; the other seat shows its whole bank.
  EXPECT_EQ(time_left_ms(f, 293000, true, 1000, 13500), 280500);
  EXPECT_EQ(time_left_ms(f, 293000, false, 1000, 13500), 293000);
  EXPECT_EQ(time_left_ms(f, 5000, true, 0, 9000), 0);  // past the deadline: 0, never negative
  ClockSettings m = parse_clock("move:60");
  EXPECT_EQ(time_left_ms(m, 60000, true, 0, 45000), 15000);
  EXPECT_EQ(time_left_ms(m, 60000, false, 0, 45000), 60000);
  // A seat that lost on time has an empty bank: 0 after the end, not the time per move again.
  EXPECT_EQ(time_left_ms(m, 0, false, 0, 45000), 0);
  EXPECT_EQ(time_left_ms(f, 0, false, 0, 45000), 0);
}

}  // namespace
}  // namespace plateau::server
