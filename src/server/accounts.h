#pragma once
// Accounts: the registered users (name, Argon2id hash, challenge limit), registration, login
// checks and the `limit` setting, apart from the lobby (issue 12, items 5 and 7; issue 13 wants
// the service on its own).
//
// Password hashing runs on its own small thread pool (`hashing`, LobbyLimits::hash_threads), never
// on the CPU players' pool, so that guessing cannot starve bots; at most
// LobbyLimits::max_waiting_hashes hashes wait for it, more are refused at once ("server busy").
// Logins go through a LoginThrottle first: during a back-off they are refused without hashing.
//
// The service never touches a connection: each operation ends by calling its `done` with the
// outcome (on any thread), and the lobby sets the session's identity on the session's strand.
// Thread-safe.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "server/asio.h"
#include "server/limits.h"
#include "server/login_throttle.h"
#include "store/store.h"

namespace plateau::server {

class Accounts {
 public:
  Accounts(store::Store& store, boost::asio::thread_pool& hashing, const LobbyLimits& limits);

  // At start-up, before anything else: the stored accounts.
  void restore(const std::vector<store::AccountRow>& rows);
  // Several nodes on one database (docs/CLUSTER.md): another node may store an account after
  // this one read them. `fetch(name)` reads it (cluster::Node::account); register and login
  // call it, on the hash pool (bounded, after the login throttle), for a name not held here.
  using Fetch = std::function<std::optional<store::AccountRow>(const std::string& name)>;
  void set_fetch(Fetch fetch) { fetch_ = std::move(fetch); }

  // The outcome of register/login: `user` (the account's name as registered) or, if it is
  // empty, `error` (the text of an `error:` line).
  using Done = std::function<void(std::string user, std::string error)>;

  // Creates account `name` with `password` and makes it durable. Throws CommandError at once for
  // a bad or reserved name, a password outside the policy (password_policy_error) or a name
  // already taken; otherwise `done` runs later (hash pool or store thread): "the name X is
  // taken" if someone was quicker, "server busy..." if too many hashes wait, "could not store
  // the account" if the store failed. `email` (a mail sign-up's address, already checked by the
  // caller; "" for none) is stored in the same row: never an account without its address.
  void register_account(const std::string& name, const std::string& password, Done done,
                        const std::string& email = {});

  // Checks `password` for account `name` (any case) on behalf of a client at `address`.
  // `done` runs exactly once: at once for a refusal by the throttle ("too many failed logins
  // for NAME; try again in N s" or "... from your address; ...") or a full hash queue, else on
  // the hash pool: the account's name, or "wrong name or password" (unknown names cost the
  // same hash, so that timing does not tell which names exist).
  void login(const std::string& name, const std::string& password, const std::string& address,
             Done done);

  // The challenges `name` accepts: store::kAcceptAllChallenges, 0 (none) or at most N open
  // boards started by others; nullopt if there is no such account.
  std::optional<int> challenge_limit(const std::string& name) const;
  // Sets and stores the challenge limit of account `name`; `done(error)` runs once it is
  // durable ("" on success), on the store's thread. Throws CommandError if there is no such
  // account.
  void set_challenge_limit(const std::string& name, int limit,
                           std::function<void(std::string error)> done);

  // Play by e-mail (issue 15). The address of account `name` ("" if none or no such account).
  std::string email_of(const std::string& name) const;
  // The accounts whose address is `email` (compared without case), by name.
  std::vector<std::string> names_with_email(const std::string& email) const;
  // Sets and stores the address of account `name`; `done(error)` once durable ("" on success),
  // on the store's thread. Throws CommandError if there is no such account.
  void set_email(const std::string& name, const std::string& email,
                 std::function<void(std::string error)> done);

  // Which mail `name` gets about games it is not connected to (issue 15, item 4; notifier.h):
  // "every", "digest" or "off"; "off" for no such account.
  std::string notify_of(const std::string& name) const;
  // The accounts with an address whose setting is `mode`, by name.
  std::vector<std::string> names_notified(const std::string& mode) const;
  // Sets and stores it (`mode` already checked); `done(error)` once durable, as set_email.
  void set_notify(const std::string& name, const std::string& mode,
                  std::function<void(std::string error)> done);
  // `change password`: sets `name`'s password to `password` (checked by password_policy_error;
  // CommandError at once if it fails) once hashed and durable; `done(error)` on the hash pool or
  // the store's thread ("" on success, "server busy..." or "could not store the password; it is
  // unchanged"). The caller has checked the old one (login()).
  void set_password(const std::string& name, const std::string& password,
                    std::function<void(std::string error)> done);
  // `signoff`: closes account `name`: no password can log in any more (the hash is emptied), no
  // mail goes to it, it accepts no challenge; the name stays taken, so that the records of its
  // finished games keep naming it and nobody else can become it. `done(error)` once durable.
  // Throws CommandError if there is no such account.
  void close_account(const std::string& name, std::function<void(std::string error)> done);
  // True for an account closed by close_account().
  bool closed(const std::string& name) const;

  // The registered spelling of `name` (any case), or "" if there is no such account.
  std::string canonical(const std::string& name) const;
  bool exists(const std::string& name) const { return !canonical(name).empty(); }
  std::size_t size() const;

  // The back-off shared by logins and resume attempts (`resume TOKEN`).
  LoginThrottle& throttle() { return throttle_; }

  // Refusal text of a login during a back-off (what login() answers).
  static std::string refusal_text(const std::string& name, const LoginThrottle::Refusal& r);

 private:
  // Adds account `name` from fetch_ if it is not held (fetch_ set). Call without mutex_.
  void fetch_missing(const std::string& name);
  Fetch fetch_;  // set before any command; read-only afterwards
  // Sets one field of `name`'s account at once (`change` returns how to put it back) and stores
  // the row; if the store fails the field is put back and `done` gets `failure`. Throws
  // CommandError for an unknown name.
  using Undo = std::function<void(store::AccountRow&)>;
  using Change = std::function<Undo(store::AccountRow&)>;
  void update_account(const std::string& name, const Change& change, std::string failure,
                      std::function<void(std::string error)> done);

  // Runs `job` on the hash pool unless max_waiting_hashes already wait; false if refused.
  bool post_hash(std::function<void()> job);

  store::Store& store_;
  boost::asio::thread_pool& hashing_;
  const std::size_t max_waiting_;
  std::atomic<std::size_t> waiting_{0};
  LoginThrottle throttle_;

  mutable std::mutex mutex_;
  std::map<std::string, store::AccountRow> accounts_;  // key: lower-case name
};

// True if `name` may be registered: 2-20 letters, digits, '_' or '-', starting with a letter.
bool valid_user_name(std::string_view name);
// True for names kept for the server (guests, CPU seats, "server", "admin"); `lower` is
// lower-case.
bool reserved_name(const std::string& lower);

}  // namespace plateau::server
