#include "server/correspondence_clock.h"

#include <algorithm>
#include <ctime>
#include <stdexcept>

namespace plateau::server {

namespace {

std::vector<VacationPeriod> sorted(std::vector<VacationPeriod> periods) {
  std::sort(periods.begin(), periods.end(),
            [](const auto& a, const auto& b) { return a.start_ms < b.start_ms; });
  return periods;
}

std::tm utc(std::int64_t ms) {
  const std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  return tm;
}

}  // namespace

int parse_correspondence_days(const std::string& name, const std::string& value) {
  const std::string why = name + " takes a number of days from 0 (off) to " +
                          std::to_string(kMaxCorrespondenceDays) + ", not '" +
                          value.substr(0, 20) + "'";
  if (value.empty() || value.size() > 3 ||
      !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    throw std::invalid_argument(why);
  }
  const int days = std::stoi(value);
  if (days > kMaxCorrespondenceDays) throw std::invalid_argument(why);
  return days;
}

std::int64_t unpaused_ms(std::int64_t from_ms, std::int64_t to_ms,
                         const std::vector<VacationPeriod>& periods) {
  if (to_ms <= from_ms) return 0;
  std::int64_t free = 0;
  std::int64_t t = from_ms;  // everything before t is counted
  for (const auto& p : sorted(periods)) {
    if (p.end_ms <= t) continue;
    if (p.start_ms >= to_ms) break;
    const std::int64_t s = std::max(p.start_ms, t);
    free += s - t;
    t = std::min(p.end_ms, to_ms);
  }
  return free + (to_ms - t);
}

std::int64_t deadline_ms(std::int64_t from_ms, std::int64_t limit_ms,
                         const std::vector<VacationPeriod>& periods) {
  std::int64_t t = from_ms;
  std::int64_t left = limit_ms;
  for (const auto& p : sorted(periods)) {
    if (p.end_ms <= t) continue;
    const std::int64_t s = std::max(p.start_ms, t);
    if (s - t >= left) break;  // reached before this vacation begins
    left -= s - t;
    t = p.end_ms;
  }
  return t + left;
}

CorrespondenceDue correspondence_due(const CorrespondenceSettings& s, std::int64_t turn_started_ms,
                                     std::int64_t now_ms,
                                     const std::vector<VacationPeriod>& periods) {
  const std::int64_t used = unpaused_ms(turn_started_ms, now_ms, periods);
  if (s.forfeit_days > 0 && used >= s.forfeit_days * kDayMs) return CorrespondenceDue::kForfeit;
  if (s.nag_days > 0 && used >= s.nag_days * kDayMs) return CorrespondenceDue::kNag;
  return CorrespondenceDue::kNothing;
}

int utc_year(std::int64_t ms) { return utc(ms).tm_year + 1900; }

int vacation_days_used(const std::vector<VacationPeriod>& periods, int year) {
  std::int64_t days = 0;
  for (const auto& p : periods) {
    if (utc_year(p.start_ms) != year) continue;
    // At least one day: a vacation ended at once still costs a day, so that start/off cycles
    // cannot store rows without end (at most 14 vacations a year per user).
    days += std::max<std::int64_t>(1, (p.end_ms - p.start_ms + kDayMs - 1) / kDayMs);
  }
  return static_cast<int>(days);
}

std::optional<VacationPeriod> current_vacation(const std::vector<VacationPeriod>& periods,
                                               std::int64_t now_ms) {
  for (const auto& p : periods) {
    if (p.start_ms <= now_ms && now_ms < p.end_ms) return p;
  }
  return std::nullopt;
}

std::string utc_minute(std::int64_t ms) {
  const std::tm tm = utc(ms);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d %02d:%02d UTC", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min);
  return buf;
}

}  // namespace plateau::server
