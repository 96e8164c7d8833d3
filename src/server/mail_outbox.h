#pragma once
// Outbound mail (issue 15, item 3; docs/MAIL.md): the mail renderer and the outbox.
//
// Renderer: for each table action with table events, every player of the board who has an
// address gets one mail: pbmserv's Subject (`New Phutball Board 101`, `Phutball Board 101 bob`
// with the user to move, ` **` appended when the action is a comment), the board page as the
// text transport prints it, and headers that thread every mail of a board under its first one
// (Message-ID, In-Reply-To, References) and mark it `Auto-Submitted: auto-replied` (RFC 3834).
//
// Outbox: the mail is written (store::MailRow) in the SAME batch as the action's events, so that
// a move is never stored without its mail nor mail queued for a move that was not stored. Once
// the batch is durable the sender thread delivers it over SMTP (libcurl), retrying with
// exponential back-off (1 s doubling to 5 min) while the server refuses or is down, and deletes
// the row once accepted. Rows still there at start-up are sent then: a crash between the commit
// and the send loses nothing. (A crash after the SMTP server accepted a mail and before its row
// is deleted sends it again after the restart, with the same Message-ID, which receivers use to
// drop duplicates: SMTP has no way to make that exactly once.)
//
// Bounds (attack review items 2, 5, 6; docs/MAIL.md "Limits"): at most kMailPerAddressHour mails
// to one address in any hour and kMaxOutboxRows unsent rows in all; mail over either bound is
// dropped with a (rate-limited) log line, never queued for later, so no one can use the server to
// flood an address or fill its disk. With no --smtp nothing would ever send a row: no row is
// written. A permanent SMTP refusal (5xx) drops the row; 4xx and connection errors are retried.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "server/accounts.h"
#include "server/table_services.h"
#include "store/store.h"

namespace plateau::store::pg {
class Connection;
}

namespace plateau::server {

struct MailSettings {
  std::string smtp_url;  // smtp://host:port or smtps://host:port
  std::string from;      // the server's address (From, MAIL FROM)
  // The domain of the server's Message-IDs: from's domain.
  std::string domain() const;
};

// Mails to one address (any number of accounts may share it) in any 60 minutes, at most.
inline constexpr std::size_t kMailPerAddressHour = 30;
// Unsent outbox rows in all, at most (about 60 MB of 6 KB mails).
inline constexpr std::size_t kMaxOutboxRows = 10000;

// What one SMTP transaction gave: "" on success, else the reason; `permanent` for a 5xx reply
// (the mail will never be accepted: it is dropped, not retried).
struct SmtpResult {
  std::string error;
  bool permanent = false;
};
// Sends one message. The default uses libcurl.
using SmtpSend = std::function<SmtpResult(const MailSettings&, const std::string& recipient,
                                          const std::string& message)>;
SmtpResult smtp_send_curl(const MailSettings& settings, const std::string& recipient,
                           const std::string& message);

// The headers and body of one outbound mail.
struct MailDraft {
  std::string to;
  std::string subject;
  std::string body;         // LF line ends (CRLF in the message)
  std::string message_id;   // without brackets
  std::string in_reply_to;  // without brackets, or ""
  std::string references;   // as written ("<a@b> <c@d>"), or ""
};
// The RFC 5322 message of `draft` from `from`, dated `now_ms` (UTF-8 text/plain, 8bit, CRLF
// line ends, lines over 998 bytes broken, headers folded at 78 bytes where they have spaces).
// Every line end of the body becomes CRLF; lone CR, NUL and the other C0 controls but TAB are
// removed (no `<CR>.<CR><LF>` SMTP smuggling through a quoted original).
std::string compose_mail(const MailDraft& draft, const std::string& from, std::int64_t now_ms);

// Several nodes on one PostgreSQL database (docs/MAIL.md "Several nodes"): the outbox is shared.
// Any node writes rows into it (the table's owner, in its action's batch), and a node sends only
// the rows it claimed there (cluster/mail_db.h claim_mail: a lease, taken over when it runs out
// or the node is found dead), so that each mail is sent once by whichever node is alive. The
// daily digests are assembled once from every node's part.
struct SharedMail {
  std::string url;      // the store's PostgreSQL URL
  std::string node_id;  // this node (--node-id)
};
// How long a node holds the rows it claimed (renewed right before each send, an SMTP
// transaction taking at most 70 s): past it, another node may send them, and this one, finding
// its claim gone when it comes to a row, skips it.
inline constexpr std::int64_t kClaimLeaseMs = 5 * 60 * 1000;
// Rows claimed at once: one claim statement for many sends (a node that dies holds them until
// its takeover, about 3 s).
inline constexpr int kClaimBatch = 16;

class MailOutbox : public TableMailer {
 public:
  MailOutbox(Accounts& accounts, store::Store& store, MailSettings settings,
             SmtpSend send = smtp_send_curl);
  ~MailOutbox() override;

  // Several nodes: call before start(). The sender then claims its mail from the shared
  // outbox (polled every second, and at once after this node stored mail) instead of keeping
  // it in memory, and the digests are shared (share_digest_part).
  void share(SharedMail shared);
  // Starts the sender with the mail left unsent by the last run (Lobby::take_unsent_mail;
  // several nodes: ignored, the sender claims it from the database).
  void start(std::vector<store::MailRow> unsent);
  // Stops the sender (what is not sent stays in the store for the next start).
  void stop();

  // TableMailer: the board's mail about one action, into its batch.
  std::function<void()> on_table_events(const TableNotice& notice,
                                        const std::vector<const Event*>& events,
                                        store::Batch& batch) override;

  // TableMailer: a mail to account `user` into `batch` (the digest).
  std::function<void()> add_mail(const std::string& key, const std::string& user,
                                 const std::string& subject, const std::string& body,
                                 store::Batch& batch) override;

  // TableMailer: several nodes' digests (table_services.h); false when alone.
  bool share_digest_part(std::int64_t day, std::string part,
                         std::function<void(bool assembled)> done) override;

  // The mail of day `day`'s digests from the nodes' `parts` (share_digest_part's JSON), one per
  // reader with a board waiting on them (each under the outbox's bounds). Exposed for tests.
  std::vector<store::MailRow> compose_digests(std::int64_t day,
                                              const std::vector<std::string>& parts,
                                              const std::vector<std::pair<std::string, std::string>>&
                                                  readers);

  // A mail that answers a mail (an error, a sign-up): stored in the outbox, then `done(error)`
  // ("" once durable) on the store's thread; sent like the others. Over a bound (or with no
  // --smtp) it is dropped and `done("")` called at once.
  void queue(MailDraft draft, std::function<void(std::string error)> done);

  const MailSettings& settings() const { return settings_; }
  // The thread root of a board: the Message-ID of its `New ... Board` mail.
  std::string board_root(const TableNotice& notice) const;

 private:
  struct Pending {
    store::MailRow row;
    int attempts = 0;
    std::chrono::steady_clock::time_point due;
  };
  void enqueue(std::vector<store::MailRow> rows);
  void run();
  // Several nodes (mail_outbox_shared.cpp): the sender's loop, one round of it on `db`.
  void run_shared();
  void shared_round(store::pg::Connection& db, std::unique_lock<std::mutex>& lock);
  // Sends one claimed row; records the outcome in the database.
  void send_claimed(store::pg::Connection& db, const store::MailRow& row, int attempts);
  // The digest's mail to `user` at `address` (add_mail's message).
  store::MailRow digest_row(const std::string& key, const std::string& user,
                            const std::string& address, const std::string& subject,
                            const std::string& body);
  // True when one more mail to `address` fits the bounds (then counted); false (logged) if not.
  bool admit(const std::string& address);
  void sent_or_dropped();

  Accounts& accounts_;
  store::Store& store_;
  const MailSettings settings_;
  const SmtpSend send_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Pending> queue_;
  bool stopping_ = false;
  const bool enabled_;  // an --smtp is configured
  std::mutex limits_mutex_;
  std::map<std::string, std::deque<std::chrono::steady_clock::time_point>> recent_;  // by address
  std::size_t pending_ = 0;  // rows admitted and not yet sent or dropped
  std::optional<SharedMail> shared_;
  bool poll_now_ = false;  // (mutex_) this node stored mail: claim at once
  struct DigestPart {
    std::int64_t day = 0;
    std::string part;
    std::function<void(bool)> done;
  };
  std::deque<DigestPart> digest_parts_;  // (mutex_) for the sender's thread
  std::thread thread_;
};

}  // namespace plateau::server
