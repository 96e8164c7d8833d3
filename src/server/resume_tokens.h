#pragma once
// Resume tokens (issue 13, item 6): `login`, `register` and `guest` answer with a token; `resume
// TOKEN` on any connection logs it in as the same user (guests included) until the token expires
// or `logout` revokes it.
//
// A token is 32 random bytes (libsodium randombytes_buf) written as 43 characters of unpadded
// base64url. Its first 8 bytes are the selector (the public key of the row, stored as hex), the
// other 24 bytes (192 bits) the secret: only its BLAKE2b-256 hash is kept (memory and store), and
// a presented secret is compared with it in constant time (sodium_memcmp). So neither a copy of
// the database nor the time an answer takes tells a usable token.
//
// Expiry slides: a token is valid until `ttl` after its last use, i.e. its issue, a resume, or
// (sweep()) a moment when its user is still online; LobbyLimits::token_ttl for accounts,
// guest_token_ttl for guests. Bounds: LobbyLimits::max_tokens_per_user (one more revokes that
// user's least recently used) and max_tokens (one more revokes the one expiring first).
//
// Every change is written to the store; only issue() waits for it (a token is handed out once
// it is durable). Thread-safe.
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "server/limits.h"
#include "store/store.h"

namespace plateau::server {

class ResumeTokens {
 public:
  // Characters of a token as handed out.
  static constexpr std::size_t kTokenChars = 43;

  ResumeTokens(store::Store& store, const LobbyLimits& limits);

  // At start-up: the stored tokens. Expired ones are deleted from the store. `now_ms`: wall
  // clock, ms since the epoch (as every time below).
  void restore(const std::vector<store::TokenRow>& rows, std::int64_t now_ms);

  // The outcome of issue(): the token and its selector, or both "" if the store failed (the
  // token was never valid).
  using Issued = std::function<void(std::string token, std::string selector)>;
  // Makes a new token for `user`; `done` runs once it is durable, on the store's thread.
  void issue(const std::string& user, bool guest, std::int64_t now_ms, Issued done);

  struct Identity {
    std::string user;
    bool guest = false;
    std::string selector;
  };
  // The user `token` logs in, if it is well-formed, known, not revoked and not expired at
  // `now_ms`; its expiry is renewed. nullopt otherwise (whatever the reason: the caller answers
  // one error).
  std::optional<Identity> resume(std::string_view token, std::int64_t now_ms);

  // The selector of `token` (hex), if it is well-formed; nullopt otherwise.
  static std::optional<std::string> selector_of(std::string_view token);
  // True if the token `selector` is held (valid or not).
  bool knows(const std::string& selector) const {
    std::lock_guard lock(mutex_);
    return rows_.count(selector) > 0;
  }

  // Revokes the token `selector` (logout, a connection logging in as someone else). Nothing if
  // it is not there.
  void revoke(const std::string& selector);
  // Revokes every token of `user` (any case): the account was closed (`signoff`).
  void revoke_user(const std::string& user);
  // Renews the expiry of `selector` from `now_ms` (a connection that used it has just closed).
  void touch(const std::string& selector, std::int64_t now_ms);
  // True if `user` (any case) holds a token valid at `now_ms`.
  bool holds_valid(const std::string& user, std::int64_t now_ms) const;
  // Deletes the tokens expired at `now_ms`, except those of users for whom `online(user)` is
  // true (renewed instead). Returns the names (as stored) of guests left without any token.
  std::vector<std::string> sweep(std::int64_t now_ms,
                                 const std::function<bool(const std::string&)>& online);
  // Tokens held (for tests and stats).
  std::size_t size() const;

 private:
  std::int64_t ttl_ms(bool guest) const;
  // Removes `selector` from memory (mutex_ held); returns the row. By value: callers pass
  // strings that live in the containers it erases from (by_expiry_'s nodes).
  store::TokenRow erase_locked(std::string selector);
  // Sets the expiry of a held token (mutex_ held) and queues its row in `batch`.
  void renew_locked(store::TokenRow& row, std::int64_t expires_ms, store::Batch& batch);
  void submit(store::Batch batch);

  store::Store& store_;
  const LobbyLimits limits_;
  mutable std::mutex mutex_;
  std::map<std::string, store::TokenRow> rows_;                  // by selector
  std::set<std::pair<std::int64_t, std::string>> by_expiry_;     // (expires_ms, selector)
  std::map<std::string, std::set<std::string>> by_user_;         // lower-case name -> selectors
};

}  // namespace plateau::server
