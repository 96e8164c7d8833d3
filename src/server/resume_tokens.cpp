#include "server/resume_tokens.h"

#include <sodium.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <stdexcept>

#include "core/text.h"

namespace plateau::server {

namespace {

constexpr std::size_t kTokenBytes = 32;
constexpr std::size_t kSelectorBytes = 8;
constexpr std::size_t kHashBytes = crypto_generichash_BYTES;  // 32: BLAKE2b-256

void init_sodium() {
  static const int ok = sodium_init();
  if (ok < 0) throw std::runtime_error("libsodium failed to initialise");
}

std::string to_hex(const unsigned char* bytes, std::size_t n) {
  std::string out(n * 2 + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), bytes, n);
  out.pop_back();
  return out;
}

std::array<unsigned char, kHashBytes> hash_secret(const unsigned char* secret, std::size_t n) {
  std::array<unsigned char, kHashBytes> out{};
  crypto_generichash(out.data(), out.size(), secret, n, nullptr, 0);
  return out;
}

// The raw bytes of a token as handed out, or nullopt if it is not exactly one.
std::optional<std::array<unsigned char, kTokenBytes>> decode(std::string_view token) {
  if (token.size() != ResumeTokens::kTokenChars) return std::nullopt;
  std::array<unsigned char, kTokenBytes> bytes{};
  std::size_t len = 0;
  if (sodium_base642bin(bytes.data(), bytes.size(), token.data(), token.size(), nullptr, &len,
                        nullptr, sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
      len != kTokenBytes) {
    return std::nullopt;
  }
  return bytes;
}

}  // namespace

ResumeTokens::ResumeTokens(store::Store& store, const LobbyLimits& limits)
    : store_(store), limits_(limits) {
  init_sodium();
}

std::int64_t ResumeTokens::ttl_ms(bool guest) const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(guest ? limits_.guest_token_ttl
                                                                     : limits_.token_ttl)
      .count();
}

void ResumeTokens::submit(store::Batch batch) {
  if (batch.empty()) return;
  store_.submit(std::move(batch), [](std::exception_ptr error) {
    if (!error) return;
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      // Memory stays as decided (a revoked token stays revoked for this run).
      spdlog::error("resume tokens: could not store a change: {}", e.what());
    }
  });
}

void ResumeTokens::restore(const std::vector<store::TokenRow>& rows, std::int64_t now_ms) {
  store::Batch batch;
  {
    std::lock_guard lock(mutex_);
    for (const auto& r : rows) {
      if (r.expires_ms <= now_ms) {
        batch.delete_token(r.selector);
        continue;
      }
      rows_[r.selector] = r;
      by_expiry_.insert({r.expires_ms, r.selector});
      by_user_[to_lower(r.user)].insert(r.selector);
    }
  }
  submit(std::move(batch));
}

store::TokenRow ResumeTokens::erase_locked(std::string selector) {
  auto it = rows_.find(selector);
  if (it == rows_.end()) return {};
  store::TokenRow row = std::move(it->second);
  rows_.erase(it);
  by_expiry_.erase({row.expires_ms, selector});
  auto u = by_user_.find(to_lower(row.user));
  if (u != by_user_.end()) {
    u->second.erase(selector);
    if (u->second.empty()) by_user_.erase(u);
  }
  return row;
}

void ResumeTokens::renew_locked(store::TokenRow& row, std::int64_t expires_ms,
                                store::Batch& batch) {
  by_expiry_.erase({row.expires_ms, row.selector});
  row.expires_ms = expires_ms;
  by_expiry_.insert({row.expires_ms, row.selector});
  batch.put_token(row);
}

void ResumeTokens::issue(const std::string& user, bool guest, std::int64_t now_ms, Issued done) {
  std::array<unsigned char, kTokenBytes> bytes{};
  randombytes_buf(bytes.data(), bytes.size());
  char text[kTokenChars + 1];
  sodium_bin2base64(text, sizeof text, bytes.data(), bytes.size(),
                    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  std::string token(text, kTokenChars);
  const auto hash = hash_secret(bytes.data() + kSelectorBytes, kTokenBytes - kSelectorBytes);
  store::TokenRow row{to_hex(bytes.data(), kSelectorBytes), to_hex(hash.data(), hash.size()),
                      user, guest, now_ms, now_ms + ttl_ms(guest)};
  sodium_memzero(bytes.data(), bytes.size());

  store::Batch batch;
  {
    std::lock_guard lock(mutex_);
    if (rows_.count(row.selector)) {  // 2^-64: not worth a retry loop, but never overwrite
      return done("", "");
    }
    // The bounds: this user's least recently used first, then the one expiring first.
    auto& mine = by_user_[to_lower(user)];
    while (mine.size() >= std::max<std::size_t>(limits_.max_tokens_per_user, 1)) {
      const std::string* oldest = nullptr;
      for (const auto& s : mine) {
        if (!oldest || rows_[s].expires_ms < rows_[*oldest].expires_ms) oldest = &s;
      }
      const std::string victim = *oldest;
      erase_locked(victim);  // may erase `mine` itself when it empties: re-fetch below
      batch.delete_token(victim);
      if (!by_user_.count(to_lower(user))) break;
    }
    while (rows_.size() >= std::max<std::size_t>(limits_.max_tokens, 1)) {
      const std::string victim = by_expiry_.begin()->second;
      erase_locked(victim);
      batch.delete_token(victim);
    }
    rows_[row.selector] = row;
    by_expiry_.insert({row.expires_ms, row.selector});
    by_user_[to_lower(user)].insert(row.selector);
  }
  batch.put_token(row);
  store_.submit(std::move(batch), [this, done = std::move(done), token = std::move(token),
                                   selector = row.selector](std::exception_ptr error) {
    if (error) {
      {
        std::lock_guard lock(mutex_);
        erase_locked(selector);
      }
      return done("", "");
    }
    done(token, selector);
  });
}

std::optional<std::string> ResumeTokens::selector_of(std::string_view token) {
  auto bytes = decode(token);
  if (!bytes) return std::nullopt;
  return to_hex(bytes->data(), kSelectorBytes);
}

std::optional<ResumeTokens::Identity> ResumeTokens::resume(std::string_view token,
                                                           std::int64_t now_ms) {
  auto bytes = decode(token);
  if (!bytes) return std::nullopt;
  const std::string selector = to_hex(bytes->data(), kSelectorBytes);
  const auto hash = hash_secret(bytes->data() + kSelectorBytes, kTokenBytes - kSelectorBytes);
  store::Batch batch;
  Identity id;
  {
    std::lock_guard lock(mutex_);
    auto it = rows_.find(selector);
    if (it == rows_.end()) return std::nullopt;
    std::array<unsigned char, kHashBytes> stored{};
    std::size_t len = 0;
    if (sodium_hex2bin(stored.data(), stored.size(), it->second.verifier_hash.data(),
                       it->second.verifier_hash.size(), nullptr, &len, nullptr) != 0 ||
        len != kHashBytes || sodium_memcmp(stored.data(), hash.data(), kHashBytes) != 0) {
      return std::nullopt;
    }
    if (it->second.expires_ms <= now_ms) return std::nullopt;  // sweep() deletes it
    renew_locked(it->second, now_ms + ttl_ms(it->second.guest), batch);
    id = {it->second.user, it->second.guest, selector};
  }
  submit(std::move(batch));
  return id;
}

void ResumeTokens::revoke(const std::string& selector) {
  if (selector.empty()) return;
  {
    std::lock_guard lock(mutex_);
    if (!rows_.count(selector)) return;
    erase_locked(selector);
  }
  store::Batch batch;
  batch.delete_token(selector);
  submit(std::move(batch));
}

void ResumeTokens::revoke_user(const std::string& user) {
  std::set<std::string> selectors;
  {
    std::lock_guard lock(mutex_);
    auto it = by_user_.find(to_lower(user));
    if (it != by_user_.end()) selectors = it->second;
  }
  for (const auto& s : selectors) revoke(s);
}

void ResumeTokens::touch(const std::string& selector, std::int64_t now_ms) {
  store::Batch batch;
  {
    std::lock_guard lock(mutex_);
    auto it = rows_.find(selector);
    if (it == rows_.end() || it->second.expires_ms <= now_ms) return;
    renew_locked(it->second, now_ms + ttl_ms(it->second.guest), batch);
  }
  submit(std::move(batch));
}

bool ResumeTokens::holds_valid(const std::string& user, std::int64_t now_ms) const {
  std::lock_guard lock(mutex_);
  auto u = by_user_.find(to_lower(user));
  if (u == by_user_.end()) return false;
  return std::any_of(u->second.begin(), u->second.end(), [&](const std::string& s) {
    auto it = rows_.find(s);
    return it != rows_.end() && it->second.expires_ms > now_ms;
  });
}

std::vector<std::string> ResumeTokens::sweep(
    std::int64_t now_ms, const std::function<bool(const std::string&)>& online) {
  std::vector<store::TokenRow> expired;
  {
    std::lock_guard lock(mutex_);
    while (!by_expiry_.empty() && by_expiry_.begin()->first <= now_ms) {
      expired.push_back(erase_locked(by_expiry_.begin()->second));
    }
  }
  // `online` takes the presence lock: never called with mutex_ held.
  store::Batch batch;
  std::vector<std::string> guests;
  for (auto& row : expired) {
    if (online(row.user)) {
      std::lock_guard lock(mutex_);
      row.expires_ms = now_ms + ttl_ms(row.guest);
      rows_[row.selector] = row;
      by_expiry_.insert({row.expires_ms, row.selector});
      by_user_[to_lower(row.user)].insert(row.selector);
      batch.put_token(row);
      continue;
    }
    batch.delete_token(row.selector);
    if (row.guest && !holds_valid(row.user, now_ms) &&
        std::find(guests.begin(), guests.end(), row.user) == guests.end()) {
      guests.push_back(row.user);
    }
  }
  submit(std::move(batch));
  return guests;
}

std::size_t ResumeTokens::size() const {
  std::lock_guard lock(mutex_);
  return rows_.size();
}

}  // namespace plateau::server
