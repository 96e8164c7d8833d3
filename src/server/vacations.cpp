#include "server/vacations.h"

#include <algorithm>

#include "core/text.h"
#include "server/command.h"

namespace plateau::server {

void Vacations::restore(const std::vector<store::VacationRow>& rows) {
  std::lock_guard lock(mutex_);
  for (const auto& r : rows) by_user_[to_lower(r.user)].push_back({r.start_ms, r.end_ms});
  for (auto& [user, periods] : by_user_) {
    std::sort(periods.begin(), periods.end(),
              [](const auto& a, const auto& b) { return a.start_ms < b.start_ms; });
  }
}

void Vacations::refresh(const std::vector<store::VacationRow>& rows) {
  std::lock_guard lock(mutex_);
  for (const auto& r : rows) {
    auto& periods = by_user_[to_lower(r.user)];
    auto it = std::find_if(periods.begin(), periods.end(),
                           [&](const VacationPeriod& p) { return p.start_ms == r.start_ms; });
    if (it != periods.end()) {
      it->end_ms = r.end_ms;
    } else {
      periods.push_back({r.start_ms, r.end_ms});
      std::sort(periods.begin(), periods.end(),
                [](const auto& a, const auto& b) { return a.start_ms < b.start_ms; });
    }
  }
}

std::vector<VacationPeriod> Vacations::of(const std::string& user) const {
  std::lock_guard lock(mutex_);
  auto it = by_user_.find(to_lower(user));
  return it == by_user_.end() ? std::vector<VacationPeriod>{} : it->second;
}

void Vacations::start(const std::string& user, int days, std::int64_t now_ms,
                      std::function<void(std::string error)> done) {
  const std::string key = to_lower(user);
  std::vector<VacationPeriod> before;
  store::VacationRow row{user, now_ms, now_ms + days * kDayMs};
  {
    std::lock_guard lock(mutex_);
    auto& periods = by_user_[key];
    if (auto v = current_vacation(periods, now_ms)) {
      throw CommandError("you are on vacation until " + utc_minute(v->end_ms) +
                         " already (vacation off ends it)");
    }
    const int year = utc_year(now_ms);
    const int left = std::max(0, kVacationDaysPerYear - vacation_days_used(periods, year));
    if (left == 0) {
      throw CommandError("you have used your " + std::to_string(kVacationDaysPerYear) +
                         " vacation days of " + std::to_string(year));
    }
    if (days < 1 || days > left) {
      throw CommandError("vacation DAYS: from 1 to " + std::to_string(left) + " (" +
                         std::to_string(left) + " of " + std::to_string(kVacationDaysPerYear) +
                         " days left in " + std::to_string(year) + ")");
    }
    // (user, start_ms) is the stored key: a vacation started in the same ms as the last one
    // (started and ended at once) starts 1 ms later, so that it never replaces that row.
    if (!periods.empty()) row.start_ms = std::max(row.start_ms, periods.back().start_ms + 1);
    row.end_ms = row.start_ms + days * kDayMs;
    before = periods;
    periods.push_back({row.start_ms, row.end_ms});
  }
  put(key, std::move(row), std::move(before), std::move(done));
}

void Vacations::end(const std::string& user, std::int64_t now_ms,
                    std::function<void(std::string error)> done) {
  const std::string key = to_lower(user);
  std::vector<VacationPeriod> before;
  store::VacationRow row{user, 0, now_ms};
  {
    std::lock_guard lock(mutex_);
    auto& periods = by_user_[key];
    auto it = std::find_if(periods.begin(), periods.end(), [&](const VacationPeriod& p) {
      return p.start_ms <= now_ms && now_ms < p.end_ms;
    });
    if (it == periods.end()) throw CommandError("you are not on vacation");
    before = periods;
    row.start_ms = it->start_ms;
    it->end_ms = now_ms;
  }
  put(key, std::move(row), std::move(before), std::move(done));
}

void Vacations::put(const std::string& key, store::VacationRow row,
                    std::vector<VacationPeriod> before,
                    std::function<void(std::string error)> done) {
  store::Batch batch;
  batch.put_vacation(row);
  store_.submit(std::move(batch), [this, key, before = std::move(before),
                                   done = std::move(done)](std::exception_ptr error) {
    if (error) {
      {
        std::lock_guard lock(mutex_);
        by_user_[key] = before;
      }
      if (done) done("could not store the vacation; nothing changed");
      return;
    }
    if (done) done("");
  });
}

std::string Vacations::describe(const std::string& user, std::int64_t now_ms) const {
  const std::vector<VacationPeriod> periods = of(user);
  const int year = utc_year(now_ms);
  const int left = std::max(0, kVacationDaysPerYear - vacation_days_used(periods, year));
  const std::string days_left = std::to_string(left) + " of " +
                                std::to_string(kVacationDaysPerYear) + " vacation days left in " +
                                std::to_string(year) + ".";
  if (auto v = current_vacation(periods, now_ms)) {
    return "You are on vacation until " + utc_minute(v->end_ms) +
           ": your correspondence time stands still; " + days_left;
  }
  return "You are not on vacation; " + days_left;
}

}  // namespace plateau::server
