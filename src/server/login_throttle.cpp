#include "server/login_throttle.h"

#include <algorithm>

#include "core/text.h"

namespace plateau::server {

namespace {

// Names are at most 20 characters; a longer "name" still gets a key, but a bounded one.
constexpr std::size_t kMaxKeyBytes = 64;

}  // namespace

LoginThrottle::LoginThrottle(std::chrono::milliseconds base, std::chrono::milliseconds max,
                             std::size_t max_entries)
    : base_(std::max(base, std::chrono::milliseconds(1))),
      max_(std::max(max, base_)),
      accounts_(std::max<std::size_t>(max_entries, 1)),
      addresses_(std::max<std::size_t>(max_entries, 1)) {}

std::chrono::milliseconds LoginThrottle::backoff(int failures) const {
  if (failures <= 0) return std::chrono::milliseconds(0);
  // base * 2^(failures-1), without overflowing: past 2^40 the cap has long been reached.
  const int shift = std::min(failures - 1, 40);
  const double wait = static_cast<double>(base_.count()) * static_cast<double>(1LL << shift);
  if (wait >= static_cast<double>(max_.count())) return max_;
  return std::chrono::milliseconds(static_cast<std::int64_t>(wait));
}

std::string LoginThrottle::account_key(std::string_view account) {
  return to_lower(account.substr(0, kMaxKeyBytes));
}

std::optional<std::chrono::milliseconds> LoginThrottle::blocked(Entry* e,
                                                                Clock::time_point now) const {
  if (!e || e->failures == 0) return std::nullopt;
  if (now < e->blocked_until) {
    return std::max(std::chrono::milliseconds(1),
                    std::chrono::ceil<std::chrono::milliseconds>(e->blocked_until - now));
  }
  // The wait is over, but an attempt is being checked: the next one waits for its verdict
  // (and the back-off it may bring).
  if (e->in_flight > 0) return backoff(e->failures + 1);
  return std::nullopt;
}

std::optional<LoginThrottle::Refusal> LoginThrottle::begin(std::string_view account,
                                                           std::string_view address,
                                                           Clock::time_point now) {
  const std::string name = account_key(account);
  const std::string addr(address.substr(0, kMaxKeyBytes));
  std::lock_guard lock(mutex_);
  accounts_.expire(now, max_);
  addresses_.expire(now, max_);
  if (auto wait = blocked(accounts_.find(name), now)) return Refusal{true, *wait};
  if (auto wait = blocked(addresses_.find(addr), now)) return Refusal{false, *wait};
  // Counted in flight until end(); an entry that never fails is dropped there.
  ++accounts_.get(name).in_flight;
  ++addresses_.get(addr).in_flight;
  return std::nullopt;
}

void LoginThrottle::record(Keys& keys, const std::string& key, Outcome outcome,
                           bool reset_on_success, Clock::time_point now) {
  Entry* e = keys.find(key);  // begin() made it; expire() never drops one in flight
  if (!e) return;
  if (e->in_flight > 0) --e->in_flight;
  if (outcome == Outcome::kFailure) {
    ++e->failures;
    e->last_failure = now;
    e->blocked_until = std::max(e->blocked_until, now + backoff(e->failures));
    keys.touch(*e);
    return;
  }
  if (outcome == Outcome::kSuccess && reset_on_success) {
    e->failures = 0;
    e->blocked_until = {};
  }
  if (e->failures == 0 && e->in_flight == 0) keys.erase(key);
}

void LoginThrottle::end(std::string_view account, std::string_view address, Outcome outcome,
                        Clock::time_point now) {
  const std::string name = account_key(account);
  const std::string addr(address.substr(0, kMaxKeyBytes));
  std::lock_guard lock(mutex_);
  record(accounts_, name, outcome, true, now);
  record(addresses_, addr, outcome, false, now);
  accounts_.expire(now, max_);
  addresses_.expire(now, max_);
}

std::size_t LoginThrottle::size() const {
  std::lock_guard lock(mutex_);
  return accounts_.size() + addresses_.size();
}

// ---------------------------------------------------------------------------------------------

LoginThrottle::Entry* LoginThrottle::Keys::find(const std::string& key) {
  auto it = map_.find(key);
  return it == map_.end() ? nullptr : &*it->second;
}

LoginThrottle::Entry& LoginThrottle::Keys::get(const std::string& key) {
  if (Entry* e = find(key)) return *e;
  order_.push_front(Entry{key});
  map_[key] = order_.begin();
  return order_.front();
}

void LoginThrottle::Keys::touch(Entry& e) {
  auto it = map_.find(e.key);
  if (it != map_.end()) order_.splice(order_.begin(), order_, it->second);
}

void LoginThrottle::Keys::erase(const std::string& key) {
  auto it = map_.find(key);
  if (it == map_.end()) return;
  order_.erase(it->second);
  map_.erase(it);
}

void LoginThrottle::Keys::expire(Clock::time_point now, std::chrono::milliseconds forget) {
  // The back of the list failed longest ago. An entry's wait ends at most `max` after its last
  // failure, so the back is also (nearly) the first to lapse: stop at the first one still
  // remembered.
  while (!order_.empty()) {
    Entry& oldest = order_.back();
    const bool lapsed = now >= oldest.blocked_until + forget;
    const bool over = map_.size() > max_entries_;
    if (oldest.in_flight > 0 || (!lapsed && !over)) break;
    map_.erase(oldest.key);
    order_.pop_back();
  }
}

}  // namespace plateau::server
