// Correspondence time arithmetic (server/correspondence_clock.h): exact milliseconds.
#include <gtest/gtest.h>

#include "server/command.h"
#include "server/correspondence_clock.h"
#include "server/notifier.h"
#include "server/wall_clock.h"

namespace plateau::server {
namespace {

constexpr std::int64_t kT0 = 1'780'000'000'000;  // 2026-05-28 20:26:40 UTC

TEST(Correspondence, NoVacationCountsEveryMillisecond) {
  EXPECT_EQ(unpaused_ms(kT0, kT0 + 5 * kDayMs, {}), 5 * kDayMs);
  EXPECT_EQ(unpaused_ms(kT0, kT0 - 1, {}), 0);
  EXPECT_EQ(deadline_ms(kT0, 7 * kDayMs, {}), kT0 + 7 * kDayMs);
}

TEST(Correspondence, AVacationInsideTheTurnIsSkipped) {
  const std::vector<VacationPeriod> v = {{kT0 + kDayMs, kT0 + 4 * kDayMs}};
  EXPECT_EQ(unpaused_ms(kT0, kT0 + 5 * kDayMs, v), 2 * kDayMs);
  EXPECT_EQ(unpaused_ms(kT0, kT0 + 2 * kDayMs, v), kDayMs);  // still on vacation
  EXPECT_EQ(deadline_ms(kT0, 7 * kDayMs, v), kT0 + 10 * kDayMs);
  // A deadline before the vacation begins is not moved.
  EXPECT_EQ(deadline_ms(kT0, kDayMs - 1, v), kT0 + kDayMs - 1);
  // One reached exactly when the vacation begins is not moved either.
  EXPECT_EQ(deadline_ms(kT0, kDayMs, v), kT0 + kDayMs);
}

TEST(Correspondence, VacationsBeforeAndAcrossTheTurnStart) {
  const std::vector<VacationPeriod> v = {{kT0 + 9 * kDayMs, kT0 + 10 * kDayMs},
                                         {kT0 - 3 * kDayMs, kT0 + 2 * kDayMs},
                                         {kT0 - 9 * kDayMs, kT0 - 8 * kDayMs}};
  EXPECT_EQ(unpaused_ms(kT0, kT0 + 2 * kDayMs, v), 0);
  EXPECT_EQ(unpaused_ms(kT0, kT0 + 12 * kDayMs, v), 9 * kDayMs);
  EXPECT_EQ(deadline_ms(kT0, 7 * kDayMs, v), kT0 + 9 * kDayMs);
  EXPECT_EQ(deadline_ms(kT0, 7 * kDayMs + 1, v), kT0 + 10 * kDayMs + 1);
}

TEST(Correspondence, OverlappingPeriodsCountOnce) {
  const std::vector<VacationPeriod> v = {{kT0 + kDayMs, kT0 + 3 * kDayMs},
                                         {kT0 + 2 * kDayMs, kT0 + 4 * kDayMs}};
  EXPECT_EQ(unpaused_ms(kT0, kT0 + 5 * kDayMs, v), 2 * kDayMs);
  EXPECT_EQ(deadline_ms(kT0, 2 * kDayMs, v), kT0 + 5 * kDayMs);
}

TEST(Correspondence, NagThenForfeitAtTheirDays) {
  const CorrespondenceSettings s{7, 21, false};
  EXPECT_EQ(correspondence_due(s, kT0, kT0 + 7 * kDayMs - 1, {}), CorrespondenceDue::kNothing);
  EXPECT_EQ(correspondence_due(s, kT0, kT0 + 7 * kDayMs, {}), CorrespondenceDue::kNag);
  EXPECT_EQ(correspondence_due(s, kT0, kT0 + 21 * kDayMs - 1, {}), CorrespondenceDue::kNag);
  EXPECT_EQ(correspondence_due(s, kT0, kT0 + 21 * kDayMs, {}), CorrespondenceDue::kForfeit);
  const std::vector<VacationPeriod> v = {{kT0 + kDayMs, kT0 + 6 * kDayMs}};
  EXPECT_EQ(correspondence_due(s, kT0, kT0 + 12 * kDayMs - 1, v), CorrespondenceDue::kNothing);
  EXPECT_EQ(correspondence_due(s, kT0, kT0 + 12 * kDayMs, v), CorrespondenceDue::kNag);
  EXPECT_EQ(correspondence_due(s, kT0, kT0 + 26 * kDayMs, v), CorrespondenceDue::kForfeit);
  EXPECT_EQ(correspondence_due({0, 0, true}, kT0, kT0 + 400 * kDayMs, {}),
            CorrespondenceDue::kNothing);
  EXPECT_EQ(correspondence_due({0, 3, false}, kT0, kT0 + 3 * kDayMs, {}),
            CorrespondenceDue::kForfeit);
}

TEST(Correspondence, VacationDaysPerCalendarYear) {
  const std::int64_t jan1_2027 = 1'798'761'600'000;  // 2027-01-01 00:00 UTC
  EXPECT_EQ(utc_year(jan1_2027 - 1), 2026);
  EXPECT_EQ(utc_year(jan1_2027), 2027);
  const std::vector<VacationPeriod> v = {
      {jan1_2027 - 2 * kDayMs, jan1_2027 + 3 * kDayMs},      // 5 days, charged to 2026
      {jan1_2027 + 10 * kDayMs, jan1_2027 + 11 * kDayMs + 1},  // 1 day and 1 ms: 2 days
      {jan1_2027 + 20 * kDayMs, jan1_2027 + 20 * kDayMs}};      // ended at once: 1
  EXPECT_EQ(vacation_days_used(v, 2026), 5);
  EXPECT_EQ(vacation_days_used(v, 2027), 3);
  EXPECT_EQ(current_vacation(v, jan1_2027)->start_ms, jan1_2027 - 2 * kDayMs);
  EXPECT_FALSE(current_vacation(v, jan1_2027 + 3 * kDayMs).has_value());
  EXPECT_EQ(utc_minute(jan1_2027 + 17 * 3600 * 1000 + 5 * 60 * 1000), "2027-01-01 17:05 UTC");
}

TEST(Correspondence, DaysOptionRange) {
  EXPECT_EQ(parse_correspondence_days("nagtime", "0"), 0);
  EXPECT_EQ(parse_correspondence_days("nagtime", "365"), 365);
  for (const char* bad : {"", "366", "-1", "7d", "1000", "+3"}) {
    EXPECT_THROW(parse_correspondence_days("nagtime", bad), std::invalid_argument) << bad;
  }
}

TEST(Correspondence, ClockOffsetFile) {
  const std::string path = ::testing::TempDir() + "/plateau_clock_offset";
  auto write = [&](const std::string& text) {
    FILE* f = std::fopen(path.c_str(), "w");
    std::fputs(text.c_str(), f);
    std::fclose(f);
  };
  write(" 604800000\n");
  EXPECT_EQ(read_clock_offset_file(path), 604800000);
  write("-5");
  EXPECT_EQ(read_clock_offset_file(path), -5);
  for (const char* bad : {"", "abc", "1e9", "99999999999999999", "- 5"}) {
    write(bad);
    EXPECT_FALSE(read_clock_offset_file(path).has_value()) << bad;
  }
  EXPECT_FALSE(read_clock_offset_file(path + ".missing").has_value());
}

TEST(CommandParser, NotifyAndVacation) {
  Command n = *parse_command("Phutball NOTIFY Digest");
  EXPECT_EQ(n.verb, Verb::kNotify);
  EXPECT_EQ(n.game, "phutball");
  EXPECT_EQ(n.args, (std::vector<std::string>{"digest"}));
  EXPECT_TRUE(parse_command("notify")->args.empty());
  EXPECT_EQ(parse_command("vacation 14")->args, (std::vector<std::string>{"14"}));
  EXPECT_EQ(parse_command("vacation OFF")->args, (std::vector<std::string>{"off"}));
  auto error_of = [](const char* line) {
    try {
      parse_command(line);
    } catch (const CommandError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(error_of("notify sometimes"), "usage: notify [every|digest|off]");
  EXPECT_EQ(error_of("vacation -3"), "usage: vacation [DAYS|off]");
  EXPECT_EQ(error_of("notify -x=1"), "notify takes no -name=value parameters");
  EXPECT_EQ(error_of("vacation 3 4"), "usage: vacation [DAYS|off]");
  EXPECT_EQ(error_of("vacation 1234567890"), "usage: vacation [DAYS|off]");
  EXPECT_EQ(error_of("vacation every"), "usage: vacation [DAYS|off]");
}

// Notifications (notifier.h): who gets the mail of one action.
TEST(Notifier, OfflinePlayersConcernedWithNotifyEvery) {
  TableNotice n;
  n.players = {"alice", "bob", "carol"};
  n.next_user = "bob";
  n.connected = [](const std::string& u) { return u == "carol"; };
  auto every = [](const std::string&) { return std::string(kNotifyEvery); };
  ActionFacts moved;
  moved.turned = true;
  EXPECT_EQ(recipients(n, moved, every), (std::vector<std::string>{"bob"}));
  ActionFacts ended;
  ended.ended = true;
  EXPECT_EQ(recipients(n, ended, every), (std::vector<std::string>{"alice", "bob"}));
  ActionFacts asked;
  asked.requesters = {"alice"};
  EXPECT_EQ(recipients(n, asked, every), (std::vector<std::string>{"bob"}));
  EXPECT_TRUE(recipients(n, ActionFacts{}, every).empty());  // a comment
  auto digest = [](const std::string& u) {
    return std::string(u == "bob" ? kNotifyDigest : kNotifyEvery);
  };
  EXPECT_TRUE(recipients(n, moved, digest).empty());
  n.by_mail = true;  // a mail board: every player, every page
  EXPECT_EQ(recipients(n, ActionFacts{}, digest),
            (std::vector<std::string>{"alice", "bob", "carol"}));
  n.nag_user = "bob";
  EXPECT_EQ(recipients(n, ActionFacts{}, digest), (std::vector<std::string>{"bob"}));
  n.by_mail = false;
  auto off = [](const std::string&) { return std::string(kNotifyOff); };
  EXPECT_TRUE(recipients(n, ActionFacts{}, off).empty());
}

}  // namespace
}  // namespace plateau::server
