#pragma once
// Correspondence time (issue 15, item 5; specs/phutball.md §10.6; docs/MAIL.md): pbmserv's
// `-nagtime=DAYS` (a reminder to the player to move) and `-forfeittime=DAYS` (the player to
// move forfeits), and `vacation DAYS`, which pauses a player's correspondence time. This file
// is the arithmetic alone, on wall-clock milliseconds since the epoch: no I/O, no clock read,
// so that every deadline is tested to the millisecond (tests/server/correspondence_test.cpp).
//
// A turn's correspondence time is the time since the turn began (Table::turn_started_ms_) less
// the parts of it that fall in one of the player's vacations. The nag is due once that reaches
// nag_days whole days, the forfeit once it reaches forfeit_days.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace plateau::server {

inline constexpr std::int64_t kDayMs = 24LL * 60 * 60 * 1000;
// Longest nag or forfeit time a board may carry, in days (pbmserv's framework: 365 days of
// total time per player).
inline constexpr int kMaxCorrespondenceDays = 365;
// Vacation days one user may take in one calendar year (UTC), as Abstract Play.
inline constexpr int kVacationDaysPerYear = 14;

// A board's correspondence settings (table options -nagtime= and -forfeittime=; 0 = off), and
// whether it was challenged by mail (its players get every page by mail, docs/MAIL.md).
struct CorrespondenceSettings {
  int nag_days = 0;
  int forfeit_days = 0;
  bool by_mail = false;
  bool any() const { return nag_days > 0 || forfeit_days > 0; }
  bool operator==(const CorrespondenceSettings&) const = default;
};

// `-nagtime=` / `-forfeittime=` values: an integer 0..kMaxCorrespondenceDays. Throws
// std::invalid_argument naming `name` and the range otherwise.
int parse_correspondence_days(const std::string& name, const std::string& value);

// One vacation of one user: [start_ms, end_ms).
struct VacationPeriod {
  std::int64_t start_ms = 0;
  std::int64_t end_ms = 0;
  bool operator==(const VacationPeriod&) const = default;
};

// Milliseconds of [from_ms, to_ms) that no period covers (periods in any order, may overlap).
// 0 when to_ms <= from_ms.
std::int64_t unpaused_ms(std::int64_t from_ms, std::int64_t to_ms,
                         const std::vector<VacationPeriod>& periods);

// The first instant t >= from_ms at which unpaused_ms(from_ms, t, periods) == limit_ms (limit_ms
// >= 0): the deadline of a turn that began at from_ms, vacations skipped.
std::int64_t deadline_ms(std::int64_t from_ms, std::int64_t limit_ms,
                         const std::vector<VacationPeriod>& periods);

// What is due for the player to move at now_ms, on a turn that began at turn_started_ms.
enum class CorrespondenceDue { kNothing, kNag, kForfeit };
CorrespondenceDue correspondence_due(const CorrespondenceSettings& s, std::int64_t turn_started_ms,
                                     std::int64_t now_ms,
                                     const std::vector<VacationPeriod>& periods);

// The UTC calendar year of an instant (1970..).
int utc_year(std::int64_t ms);
// Vacation days charged in calendar year `year`: each period counts in the year it starts, as
// its length in days rounded up, at least 1.
int vacation_days_used(const std::vector<VacationPeriod>& periods, int year);
// The period that covers now_ms, if any.
std::optional<VacationPeriod> current_vacation(const std::vector<VacationPeriod>& periods,
                                               std::int64_t now_ms);

// "2026-12-23 17:05 UTC".
std::string utc_minute(std::int64_t ms);

}  // namespace plateau::server
