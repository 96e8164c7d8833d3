#pragma once
// Inbound mail already run (issue 15 a; docs/MAIL.md): a mail server that did not get our LMTP
// `250` (the connection dropped after the command ran) delivers the same message again, and a
// chat, an undo request or a challenge must not run twice. A mail is known by its envelope
// sender (lower-case) and its Message-ID; once its command ran, that pair is stored (store
// migration 9, table mail_seen) before the `250` goes out, so a redelivery, even after a restart,
// is answered `250` without running again. A mail without a Message-ID cannot be told apart
// from another one and always runs.
//
// Bounds: pairs are kept kKeepMs (30 days: far beyond any mail server's retry time) and at most
// kMaxKept (the oldest go first), in memory and in the store. Thread-safe.
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "store/store.h"

namespace plateau::server {

class MailDedup {
 public:
  static constexpr std::int64_t kKeepMs = 30LL * 24 * 3600 * 1000;
  static constexpr std::size_t kMaxKept = 100000;

  explicit MailDedup(store::Store& store) : store_(store) {}

  // At start-up: the pairs the store holds (Snapshot::mail_seen, oldest first). Those older
  // than kKeepMs before `now_ms`, or beyond kMaxKept, are left out.
  void restore(const std::vector<store::MailSeenRow>& rows, std::int64_t now_ms);

  enum class Claim {
    kRun,      // not seen: the caller runs it, then calls done_with() (or release())
    kDone,     // already run: answer 250, run nothing
    kRunning,  // another delivery of the same mail is running now: answer 451 (try later)
    kUnknown,  // no Message-ID: run it, nothing to record
  };
  Claim claim(const std::string& sender, const std::string& message_id);
  // After kRun, when the mail did not run (a temporary failure: it will come again).
  void release(const std::string& sender, const std::string& message_id);
  // After kRun, when the mail ran: records it (durably) and then calls `done(error)` ("" once
  // stored) on the store's thread. The pair counts as run at once, whatever the store says.
  void done_with(const std::string& sender, const std::string& message_id, std::int64_t now_ms,
                 std::function<void(std::string error)> done);

  std::size_t size() const;

 private:
  using Key = std::pair<std::string, std::string>;
  static Key key(const std::string& sender, const std::string& message_id);
  // Drops the oldest pairs while there are more than kMaxKept or they are older than kKeepMs;
  // returns the time before which the store forgets them too (0: nothing dropped). Locked.
  std::int64_t evict(std::int64_t now_ms);

  store::Store& store_;
  mutable std::mutex mutex_;
  std::map<Key, std::int64_t> seen_;           // pair -> when it ran
  std::deque<std::pair<std::int64_t, Key>> order_;  // by time of run, oldest first
  std::set<Key> running_;
};

}  // namespace plateau::server
