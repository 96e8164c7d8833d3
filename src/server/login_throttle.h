#pragma once
// Exponential back-off after failed logins, per account name and per client address (issue 12,
// item 7). After the f-th failure in a row for a key, the next attempt for that key waits
// min(max, base * 2^(f-1)); an attempt during the wait is refused at once, before any password
// is hashed, so that guessing costs the server nothing. A success resets the account (not the
// address: one good account must not buy an address fresh guesses at the others).
//
// Names are throttled whether or not an account of that name exists, so the answers do not tell
// which names exist. While an attempt of a key that has already failed is being checked, further
// attempts of that key are refused too: a burst of connections cannot all slip through the gap
// between the check and the verdict.
//
// Memory is bounded: a key is forgotten (its count starts again from zero) once its wait has
// lapsed and `max` more has passed without a failure, and each kind of key keeps at most
// `max_entries`, dropping the least recently failed first. Thread-safe.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace plateau::server {

class LoginThrottle {
 public:
  using Clock = std::chrono::steady_clock;

  // `base` and `max` as LobbyLimits::login_backoff_base / _max (base > 0, max >= base);
  // `max_entries`: keys kept per kind (names, addresses), at least 1.
  LoginThrottle(std::chrono::milliseconds base, std::chrono::milliseconds max,
                std::size_t max_entries);

  enum class Outcome { kSuccess, kFailure, kCancelled };
  struct Refusal {
    bool by_account = true;          // the account is backing off (else the address)
    std::chrono::milliseconds wait;  // until the next attempt is considered (> 0)
  };

  // Starts an attempt to log in as `account` (any case) from `address` at `now`. Returns the
  // refusal if either is backing off (the account first); otherwise the attempt is in flight
  // and the caller must call end() once with its outcome.
  std::optional<Refusal> begin(std::string_view account, std::string_view address,
                               Clock::time_point now);
  // Ends an attempt that begin() let through. kCancelled (the password was never checked, e.g.
  // the server was busy) changes no counter.
  void end(std::string_view account, std::string_view address, Outcome outcome,
           Clock::time_point now);

  // The wait after `failures` failures in a row (0 for none).
  std::chrono::milliseconds backoff(int failures) const;
  // Keys currently remembered (names + addresses), for tests and stats.
  std::size_t size() const;

 private:
  struct Entry {
    std::string key;
    int failures = 0;
    int in_flight = 0;
    Clock::time_point blocked_until{};
    Clock::time_point last_failure{};
  };
  // One kind of key: a map into a list kept in order of the last failure (front: newest).
  class Keys {
   public:
    explicit Keys(std::size_t max_entries) : max_entries_(max_entries) {}
    Entry* find(const std::string& key);
    Entry& get(const std::string& key);
    void touch(Entry& e);  // moves to the front (it just failed)
    void erase(const std::string& key);
    // Drops the entries whose back-off lapsed more than `forget` ago, then the oldest while
    // over the bound (never one with an attempt in flight).
    void expire(Clock::time_point now, std::chrono::milliseconds forget);
    std::size_t size() const { return map_.size(); }

   private:
    std::size_t max_entries_;
    std::list<Entry> order_;
    std::unordered_map<std::string, std::list<Entry>::iterator> map_;
  };

  static std::string account_key(std::string_view account);
  std::optional<std::chrono::milliseconds> blocked(Entry* e, Clock::time_point now) const;
  void record(Keys& keys, const std::string& key, Outcome outcome, bool reset_on_success,
              Clock::time_point now);

  std::chrono::milliseconds base_;
  std::chrono::milliseconds max_;
  mutable std::mutex mutex_;
  Keys accounts_;
  Keys addresses_;
};

}  // namespace plateau::server
