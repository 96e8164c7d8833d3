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
#include <string>
#include <thread>
#include <vector>

#include "server/accounts.h"
#include "server/table_services.h"
#include "store/store.h"

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

class MailOutbox : public TableMailer {
 public:
  MailOutbox(Accounts& accounts, store::Store& store, MailSettings settings,
             SmtpSend send = smtp_send_curl);
  ~MailOutbox() override;

  // Starts the sender with the mail left unsent by the last run (Lobby::take_unsent_mail).
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
  std::thread thread_;
};

}  // namespace plateau::server
