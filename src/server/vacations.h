#pragma once
// Vacations (issue 15, item 5; `vacation [DAYS|off]`, docs/MAIL.md): while a user is on
// vacation, the correspondence time of every board where that user is to move stands still
// (correspondence_clock.h). At most kVacationDaysPerYear days per calendar year (UTC), charged
// to the year a vacation starts in, as its length in days rounded up (at least 1: so at most
// 14 stored vacations a year per user); one vacation at a time.
// Each change is in force at once and stored (store::VacationRow, migration 8); if the store
// fails it is undone. Thread-safe.
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "server/correspondence_clock.h"
#include "store/store.h"

namespace plateau::server {

class Vacations {
 public:
  explicit Vacations(store::Store& store) : store_(store) {}
  // At start-up: the stored vacations.
  void restore(const std::vector<store::VacationRow>& rows);
  // Several nodes on one database (docs/CLUSTER.md): `rows` as read from the store now (those
  // ending after some time): each replaces the period of its user that starts at the same ms,
  // or is added. A vacation started on another node thus reaches the tables served here.
  void refresh(const std::vector<store::VacationRow>& rows);
  // The vacations of `user` (any case), in start order.
  std::vector<VacationPeriod> of(const std::string& user) const;
  // Starts a vacation of `days` days for `user` at now_ms. Throws CommandError (nothing changed)
  // when days is 0 or more than what is left of the year's allowance, or a vacation is already
  // running. `done(error)` runs once durable ("" on success), on the store's thread.
  void start(const std::string& user, int days, std::int64_t now_ms,
             std::function<void(std::string error)> done);
  // Ends the running vacation of `user` at now_ms (the days not begun are given back). Throws
  // CommandError if none runs. `done` as start().
  void end(const std::string& user, std::int64_t now_ms,
           std::function<void(std::string error)> done);
  // "You are on vacation until ...; N of 14 vacation days left in 2026." and the like.
  std::string describe(const std::string& user, std::int64_t now_ms) const;

 private:
  // Stores `row` as `user`'s (replacing the period that starts at the same ms); puts `before`
  // back (or removes the row when `before` is empty) if the store fails.
  void put(const std::string& key, store::VacationRow row, std::vector<VacationPeriod> before,
           std::function<void(std::string error)> done);

  store::Store& store_;
  mutable std::mutex mutex_;
  std::map<std::string, std::vector<VacationPeriod>> by_user_;  // key: lower-case name
};

}  // namespace plateau::server
