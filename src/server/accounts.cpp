#include "server/accounts.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <utility>

#include "core/text.h"
#include "server/command.h"
#include "server/password.h"

namespace plateau::server {

namespace {

std::int64_t wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

const char* const kBusy = "server busy: too many logins waiting; try again in a few seconds";

}  // namespace

bool valid_user_name(std::string_view name) {
  if (name.size() < 2 || name.size() > 20) return false;
  if (!std::isalpha(static_cast<unsigned char>(name[0]))) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

bool reserved_name(const std::string& lower) {
  return starts_with(lower, "guest") || starts_with(lower, "cpu") || lower == "server" ||
         lower == "admin";
}

Accounts::Accounts(store::Store& store, boost::asio::thread_pool& hashing,
                   const LobbyLimits& limits)
    : store_(store),
      hashing_(hashing),
      max_waiting_(std::max<std::size_t>(limits.max_waiting_hashes, 1)),
      throttle_(limits.login_backoff_base, limits.login_backoff_max,
                limits.login_throttle_entries) {}

void Accounts::restore(const std::vector<store::AccountRow>& rows) {
  std::lock_guard lock(mutex_);
  for (const auto& a : rows) accounts_[to_lower(a.name)] = a;
}

std::string Accounts::canonical(const std::string& name) const {
  std::lock_guard lock(mutex_);
  auto it = accounts_.find(to_lower(name));
  return it == accounts_.end() ? std::string() : it->second.name;
}

std::size_t Accounts::size() const {
  std::lock_guard lock(mutex_);
  return accounts_.size();
}

std::optional<int> Accounts::challenge_limit(const std::string& name) const {
  std::lock_guard lock(mutex_);
  auto it = accounts_.find(to_lower(name));
  if (it == accounts_.end()) return std::nullopt;
  return it->second.challenge_limit;
}

bool Accounts::post_hash(std::function<void()> job) {
  // Counted from the post until the hash is done: the queue and the one being computed.
  if (waiting_.fetch_add(1) >= max_waiting_) {
    waiting_.fetch_sub(1);
    return false;
  }
  boost::asio::post(hashing_, [this, job = std::move(job)] {
    try {
      job();
    } catch (const std::exception& e) {
      spdlog::error("accounts: {}", e.what());
    }
    waiting_.fetch_sub(1);
  });
  return true;
}

void Accounts::fetch_missing(const std::string& name) {
  if (!fetch_ || exists(name)) return;
  std::optional<store::AccountRow> row = fetch_(name);
  if (!row) return;
  std::lock_guard lock(mutex_);
  accounts_.try_emplace(to_lower(row->name), std::move(*row));
}

void Accounts::register_account(const std::string& name, const std::string& password, Done done,
                                const std::string& email) {
  if (!valid_user_name(name)) {
    throw CommandError("bad user name '" + name.substr(0, 30) +
                       "': 2-20 letters, digits, '_' or '-', starting with a letter");
  }
  if (reserved_name(to_lower(name))) throw CommandError("the name '" + name + "' is reserved");
  if (std::string why = password_policy_error(password); !why.empty()) throw CommandError(why);
  if (exists(name)) throw CommandError("the name " + name + " is taken");
  const bool posted = post_hash([this, name, password, done, email] {
    fetch_missing(name);  // taken on another node since this one started?
    store::AccountRow row{name, "", wall_ms()};
    row.email = email;
    try {
      row.password_hash = hash_password(password);
    } catch (const std::exception& e) {
      spdlog::error("accounts: hashing for {} failed: {}", name, e.what());
      return done("", kBusy);
    }
    {
      std::lock_guard lock(mutex_);
      if (accounts_.count(to_lower(name))) return done("", "the name " + name + " is taken");
      accounts_[to_lower(name)] = row;  // reserve the name now; durable below before we answer
    }
    store::Batch batch;
    batch.add_account(row);  // never over an account another node registered meanwhile
    store_.submit(std::move(batch), [this, done, name](std::exception_ptr error) {
      if (error) {
        {
          std::lock_guard lock(mutex_);
          accounts_.erase(to_lower(name));
        }
        fetch_missing(name);  // several nodes: was it another node's registration?
        if (exists(name)) return done("", "the name " + name + " is taken");
        return done("", "could not store the account");
      }
      done(name, "");
    });
  });
  if (!posted) done("", kBusy);
}

std::string Accounts::refusal_text(const std::string& name, const LoginThrottle::Refusal& r) {
  // Whole seconds, rounded up: "try again in 1 s" is never too early.
  const auto seconds = std::max<std::int64_t>(1, (r.wait.count() + 999) / 1000);
  return std::string("too many failed logins ") +
         (r.by_account ? "for " + name.substr(0, 30) : std::string("from your address")) +
         "; try again in " + std::to_string(seconds) + " s";
}

void Accounts::login(const std::string& name, const std::string& password,
                     const std::string& address, Done done) {
  using Clock = LoginThrottle::Clock;
  if (auto refusal = throttle_.begin(name, address, Clock::now())) {
    return done("", refusal_text(name, *refusal));
  }
  std::string hash;
  std::string canonical;
  {
    std::lock_guard lock(mutex_);
    auto it = accounts_.find(to_lower(name));
    if (it != accounts_.end()) {
      hash = it->second.password_hash;
      canonical = it->second.name;
    }
  }
  const bool posted = post_hash([this, name, address, password, hash, canonical,
                                 done]() mutable {
    if (hash.empty() && fetch_) {
      // Registered on another node since this one started? (Unknown names cost this read too.)
      fetch_missing(name);
      std::lock_guard lock(mutex_);
      if (auto it = accounts_.find(to_lower(name)); it != accounts_.end()) {
        hash = it->second.password_hash;
        canonical = it->second.name;
      }
    }
    // Verify even for unknown names so that timing does not reveal which names exist.
    static const std::string kDummy = hash_password("not a password");
    bool ok = false;
    try {
      ok = verify_password(password, hash.empty() ? kDummy : hash) && !hash.empty();
    } catch (...) {
      throttle_.end(name, address, LoginThrottle::Outcome::kCancelled, Clock::now());
      return done("", kBusy);
    }
    throttle_.end(name, address,
                  ok ? LoginThrottle::Outcome::kSuccess : LoginThrottle::Outcome::kFailure,
                  Clock::now());
    if (!ok) return done("", "wrong name or password");
    done(canonical, "");
  });
  if (!posted) {
    throttle_.end(name, address, LoginThrottle::Outcome::kCancelled, Clock::now());
    done("", kBusy);
  }
}

void Accounts::set_challenge_limit(const std::string& name, int limit,
                                   std::function<void(std::string error)> done) {
  update_account(
      name,
      [limit](store::AccountRow& row) {
        return [before = std::exchange(row.challenge_limit, limit)](store::AccountRow& r) {
          r.challenge_limit = before;
        };
      },
      "could not store the setting; it is unchanged", std::move(done));
}

std::string Accounts::email_of(const std::string& name) const {
  std::lock_guard lock(mutex_);
  auto it = accounts_.find(to_lower(name));
  return it == accounts_.end() ? std::string() : it->second.email;
}

std::vector<std::string> Accounts::names_with_email(const std::string& email) const {
  std::vector<std::string> out;
  if (email.empty()) return out;
  const std::string wanted = to_lower(email);
  std::lock_guard lock(mutex_);
  for (const auto& [key, row] : accounts_) {
    if (to_lower(row.email) == wanted) out.push_back(row.name);
  }
  return out;
}

void Accounts::set_email(const std::string& name, const std::string& email,
                         std::function<void(std::string error)> done) {
  update_account(
      name,
      [email](store::AccountRow& row) {
        return [before = std::exchange(row.email, email)](store::AccountRow& r) {
          r.email = before;
        };
      },
      "could not store the address; it is unchanged", std::move(done));
}

std::string Accounts::notify_of(const std::string& name) const {
  std::lock_guard lock(mutex_);
  auto it = accounts_.find(to_lower(name));
  return it == accounts_.end() ? std::string("off") : it->second.notify;
}

std::vector<std::string> Accounts::names_notified(const std::string& mode) const {
  std::vector<std::string> out;
  std::lock_guard lock(mutex_);
  for (const auto& [key, row] : accounts_) {
    if (!row.email.empty() && row.notify == mode) out.push_back(row.name);
  }
  return out;
}

void Accounts::set_notify(const std::string& name, const std::string& mode,
                          std::function<void(std::string error)> done) {
  update_account(
      name,
      [mode](store::AccountRow& row) {
        return [before = std::exchange(row.notify, mode)](store::AccountRow& r) {
          r.notify = before;
        };
      },
      "could not store the setting; it is unchanged", std::move(done));
}

void Accounts::set_password(const std::string& name, const std::string& password,
                            std::function<void(std::string error)> done) {
  if (std::string why = password_policy_error(password); !why.empty()) throw CommandError(why);
  if (!exists(name)) throw CommandError("no account named " + name.substr(0, 30));
  const bool posted = post_hash([this, name, password, done] {
    std::string hash;
    try {
      hash = hash_password(password);
    } catch (const std::exception& e) {
      spdlog::error("accounts: hashing for {} failed: {}", name, e.what());
      return done(kBusy);
    }
    try {
      update_account(
          name,
          [hash](store::AccountRow& row) {
            return [before = std::exchange(row.password_hash, hash)](store::AccountRow& r) {
              r.password_hash = before;
            };
          },
          "could not store the password; it is unchanged", done);
    } catch (const std::exception& e) {
      done(e.what());
    }
  });
  if (!posted) done(kBusy);
}

void Accounts::close_account(const std::string& name,
                             std::function<void(std::string error)> done) {
  update_account(
      name,
      [](store::AccountRow& row) {
        store::AccountRow before = row;
        row.password_hash.clear();  // verify_password never accepts an empty hash (login())
        row.email.clear();
        row.challenge_limit = 0;
        return [before](store::AccountRow& r) { r = before; };
      },
      "could not store the closing; the account is unchanged", std::move(done));
}

bool Accounts::closed(const std::string& name) const {
  std::lock_guard lock(mutex_);
  auto it = accounts_.find(to_lower(name));
  return it != accounts_.end() && it->second.password_hash.empty();
}

void Accounts::update_account(const std::string& name, const Change& change,
                              std::string failure, std::function<void(std::string error)> done) {
  store::AccountRow row;
  Undo undo;
  {
    std::lock_guard lock(mutex_);
    auto it = accounts_.find(to_lower(name));
    if (it == accounts_.end()) throw CommandError("no account named " + name.substr(0, 30));
    undo = change(it->second);  // in force at once; undone below if the store fails
    row = it->second;
  }
  store::Batch batch;
  batch.put_account(row);
  store_.submit(std::move(batch), [this, name, undo, failure, done](std::exception_ptr error) {
    if (error) {
      {
        std::lock_guard lock(mutex_);
        auto it = accounts_.find(to_lower(name));
        if (it != accounts_.end()) undo(it->second);
      }
      return done(failure);
    }
    done("");
  });
}

}  // namespace plateau::server
