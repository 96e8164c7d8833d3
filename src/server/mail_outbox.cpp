#include "server/mail_outbox.h"

#include <curl/curl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <ctime>
#include <set>

#include "core/text.h"
#include "server/event.h"
#include "server/notifier.h"
#include "server/mail_message.h"
#include "server/rate_limited_log.h"

namespace plateau::server {

namespace {

std::int64_t wall_ms() { return TableServices::now_ms(); }

std::string rfc5322_date(std::int64_t ms) {
  const std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  static const char* kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                  "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s, %02d %s %04d %02d:%02d:%02d +0000", kDays[tm.tm_wday],
                tm.tm_mday, kMonths[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
                tm.tm_sec);
  return buf;
}

// A header value on one line: CR, LF (header injection) and other controls become spaces.
std::string header_value(std::string_view v) {
  std::string out(v);
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  }
  return out;
}

// `name: value` CRLF, folded (RFC 5322 §2.2.3) before a space once a line passes 78 bytes, so
// that a header of many ids stays under the 998-byte line limit (runs of spaces become one).
std::string folded_header(std::string_view name, std::string_view value) {
  std::string out(name);
  out += ":";
  if (out.size() + 1 + value.size() <= 78) return out + " " + header_value(value) + "\r\n";
  std::size_t line = out.size();
  const std::string clean = header_value(value);  // split() returns views into it
  for (const auto& word : split(clean, ' ')) {
    if (word.empty()) continue;
    if (line > name.size() + 1 && line + 1 + word.size() > 78) {
      out += "\r\n";
      line = 0;
    }
    out += " ";
    out += word;
    line += 1 + word.size();
  }
  return out + "\r\n";
}

// The body with LF line ends: CRLF becomes LF; lone CR, NUL and the other C0 controls but TAB
// and LF are removed (attack review item 8: a quoted `\r.\r\n` must not reach SMTP).
std::string clean_body(std::string_view body) {
  std::string out;
  out.reserve(body.size());
  for (char c : body) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\n' && c != '\t') continue;
    out += c;
  }
  return out;
}

// What one action is, for its mail: nothing, a new board, a change of the board, a comment.
struct Summary {
  bool any = false;
  bool created = false;
  bool comment = false;
  std::string page;                // the last page an event carried
  std::vector<std::string> lines;  // texts of events without a page (requests, answers)
  std::vector<std::string> said;   // the chat lines (a nag's reminder)
  std::int64_t last_seq = 0;
};

Summary summarize(const std::vector<const Event*>& events) {
  Summary s;
  for (const Event* e : events) {
    s.last_seq = std::max(s.last_seq, e->seq);
    if (e->type == "challenge") {
      s.any = s.created = true;
      s.page = e->page;
    } else if (e->type == "move" || e->type == "board" || e->type == "gameover" ||
               e->type == "start") {
      s.any = true;
      if (!e->page.empty()) s.page = e->page;
    } else if (e->type == "chat") {
      s.any = s.comment = true;
      s.said.push_back(e->data.value("message", std::string()));
    } else if (e->type == "request") {
      s.any = true;
      s.lines.push_back(e->data.value("text", std::string()));
    }
  }
  return s;
}

// What follows the board in a Subject: the user to move; once the game is over, the page's
// own status line (specs/phutball.md §9.2: `Game won by alice`, `Game was a tie`), so that the
// last mail names the winner (issue 15 e). "" for neither (a board in set-up).
std::string subject_user(const TableNotice& notice) {
  if (!notice.next_user.empty()) return notice.next_user;
  const std::string page = notice.page();
  const auto lines = split(page, '\n');
  if (lines.size() > 2 && lines[2].substr(0, 5) == "Game ") {
    std::string_view status = lines[2];
    if (!status.empty() && status.back() == '.') status.remove_suffix(1);
    return std::string(status);
  }
  return {};
}

}  // namespace

std::string MailSettings::domain() const {
  const auto at = from.rfind('@');
  return at == std::string::npos ? std::string("localhost") : from.substr(at + 1);
}

std::string compose_mail(const MailDraft& d, const std::string& from, std::int64_t now_ms) {
  std::string m;
  m += "From: Plateau <" + header_value(from) + ">\r\n";
  m += "To: <" + header_value(d.to) + ">\r\n";
  m += folded_header("Subject", encode_header_text(header_value(d.subject)));
  m += "Date: " + rfc5322_date(now_ms) + "\r\n";
  m += "Message-ID: <" + header_value(d.message_id) + ">\r\n";
  if (!d.in_reply_to.empty()) m += "In-Reply-To: <" + header_value(d.in_reply_to) + ">\r\n";
  if (!d.references.empty()) m += folded_header("References", d.references);
  m += "Auto-Submitted: auto-replied\r\n";
  m += "MIME-Version: 1.0\r\n";
  m += "Content-Type: text/plain; charset=utf-8\r\n";
  m += "Content-Transfer-Encoding: 8bit\r\n\r\n";
  const std::string body = clean_body(d.body);
  for (auto piece : split(body, '\n')) {
    std::string_view line = piece;
    while (line.size() > 998) {  // RFC 5322 §2.1.1
      m.append(line.substr(0, 998));
      m += "\r\n";
      line.remove_prefix(998);
    }
    m.append(line);
    m += "\r\n";
  }
  if (!body.empty() && body.back() == '\n') m.resize(m.size() - 2);
  return m;
}

SmtpResult smtp_send_curl(const MailSettings& settings, const std::string& recipient,
                          const std::string& message) {
  static const bool inited = [] { return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK; }();
  if (!inited) return {"libcurl could not start"};
  CURL* curl = curl_easy_init();
  if (!curl) return {"libcurl could not start"};
  struct Reader {
    const std::string* text;
    std::size_t at = 0;
  } reader{&message};
  auto read = +[](char* buf, std::size_t size, std::size_t n, void* p) -> std::size_t {
    auto* r = static_cast<Reader*>(p);
    const std::size_t len = std::min(size * n, r->text->size() - r->at);
    std::memcpy(buf, r->text->data() + r->at, len);
    r->at += len;
    return len;
  };
  curl_slist* rcpt = curl_slist_append(nullptr, ("<" + recipient + ">").c_str());
  const std::string from = "<" + settings.from + ">";
  curl_easy_setopt(curl, CURLOPT_URL, settings.smtp_url.c_str());
  curl_easy_setopt(curl, CURLOPT_MAIL_FROM, from.c_str());
  curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, rcpt);
  curl_easy_setopt(curl, CURLOPT_READFUNCTION, read);
  curl_easy_setopt(curl, CURLOPT_READDATA, &reader);
  curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 10L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, 60L);
  const CURLcode rc = curl_easy_perform(curl);
  long code = 0;  // the last SMTP reply code (0 when no reply came)
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
  curl_slist_free_all(rcpt);
  curl_easy_cleanup(curl);
  if (rc == CURLE_OK) return {};
  std::string why = curl_easy_strerror(rc);
  if (code != 0) why += " (SMTP " + std::to_string(code) + ")";
  return {why, code >= 500 && code < 600};
}

MailOutbox::MailOutbox(Accounts& accounts, store::Store& store, MailSettings settings,
                       SmtpSend send)
    : accounts_(accounts),
      store_(store),
      settings_(std::move(settings)),
      send_(std::move(send)),
      enabled_(!settings_.smtp_url.empty()) {}

MailOutbox::~MailOutbox() { stop(); }

void MailOutbox::share(SharedMail shared) { shared_ = std::move(shared); }

void MailOutbox::start(std::vector<store::MailRow> unsent) {
  if (shared_) {
    thread_ = std::thread([this] { run_shared(); });
    return;
  }
  if (!unsent.empty()) spdlog::info("mail: {} unsent from the last run", unsent.size());
  {
    std::lock_guard lock(limits_mutex_);
    pending_ += unsent.size();
  }
  enqueue(std::move(unsent));
  thread_ = std::thread([this] { run(); });
}

void MailOutbox::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::string MailOutbox::board_root(const TableNotice& n) const {
  return n.game + "." + std::to_string(n.board) + "." + std::to_string(n.table_id) + "@" +
         settings_.domain();
}

std::function<void()> MailOutbox::on_table_events(const TableNotice& notice,
                                                  const std::vector<const Event*>& events,
                                                  store::Batch& batch) {
  if (!enabled_) return nullptr;  // nothing would ever send it
  const Summary s = summarize(events);
  if (!s.any) return nullptr;
  // Who hears of it (notifier.h): every player of a mail board, else the players concerned
  // who are not connected and chose `notify every`; a nag goes to its player alone.
  const std::vector<std::string> to =
      recipients(notice, action_facts(events),
                 [this](const std::string& user) { return accounts_.notify_of(user); });
  if (to.empty() && notice.subscribers.empty()) return nullptr;
  MailDraft d;
  const std::string root = board_root(notice);
  const bool nag = !notice.nag_user.empty();
  if (s.created) {
    d.subject = "New " + notice.title;
    d.message_id = root;
  } else {
    const std::string who = subject_user(notice);
    d.subject = (nag ? "Reminder: " : "") + notice.title + (who.empty() ? "" : " " + who) +
                (s.comment && !nag ? " **" : "");
    d.message_id = notice.game + "." + std::to_string(notice.board) + "." +
                   std::to_string(s.last_seq) + "." + std::to_string(notice.table_id) + "@" +
                   settings_.domain();
    d.in_reply_to = root;
    d.references = "<" + root + ">";
  }
  std::string page = s.page.empty() || s.comment ? notice.page() : s.page;
  if (nag) {
    for (const auto& line : s.said) d.body += line + "\n";
    d.body += "\n";
  }
  for (const auto& line : s.lines) d.body += line + "\n";
  if (!s.lines.empty() && !page.empty()) d.body += "\n";
  d.body += page;
  std::vector<store::MailRow> rows;
  std::set<std::string> seen;
  const std::int64_t now = wall_ms();
  // Subscribers (subscribe BOARD) get every page as a mail board's players do; a nag is the
  // nagged player's alone.
  std::vector<std::string> all = to;
  if (!nag) all.insert(all.end(), notice.subscribers.begin(), notice.subscribers.end());
  for (const auto& player : all) {
    const std::string address = accounts_.email_of(player);
    if (address.empty() || !seen.insert(to_lower(player)).second) continue;
    if (!admit(address)) continue;
    d.to = address;
    rows.push_back({notice.game + "." + std::to_string(notice.board) + "." +
                        std::to_string(notice.table_id) + "." + std::to_string(s.last_seq) + " " +
                        to_lower(player),
                    address, compose_mail(d, settings_.from, now), now});
    batch.add_mail(rows.back());
  }
  if (rows.empty()) return nullptr;
  return [this, rows = std::move(rows)]() mutable { enqueue(std::move(rows)); };
}

std::function<void()> MailOutbox::add_mail(const std::string& key, const std::string& user,
                                           const std::string& subject, const std::string& body,
                                           store::Batch& batch) {
  const std::string address = accounts_.email_of(user);
  if (!enabled_ || address.empty() || !admit(address)) return nullptr;
  store::MailRow row = digest_row(key, user, address, subject, body);
  batch.add_mail(row);
  return [this, row = std::move(row)]() mutable { enqueue({std::move(row)}); };
}

store::MailRow MailOutbox::digest_row(const std::string& key, const std::string& user,
                                      const std::string& address, const std::string& subject,
                                      const std::string& body) {
  const std::int64_t now = wall_ms();
  MailDraft d;
  d.to = address;
  d.subject = subject;
  d.body = body;
  d.message_id = key.substr(0, key.find(' ')) + "." + to_lower(user) + "@" + settings_.domain();
  return {key, address, compose_mail(d, settings_.from, now), now};
}

void MailOutbox::queue(MailDraft draft, std::function<void(std::string error)> done) {
  if (!enabled_ || !admit(draft.to)) return done("");
  static std::atomic<std::uint64_t> counter{0};
  const std::int64_t now = wall_ms();
  // Several nodes write one outbox: the node's id keeps two nodes' keys apart.
  store::MailRow row{"reply." + (shared_ ? shared_->node_id + "." : std::string()) +
                         std::to_string(now) + "." + std::to_string(++counter) + "." +
                         std::to_string(::getpid()),
                     draft.to, compose_mail(draft, settings_.from, now), now};
  store::Batch batch;
  batch.add_mail(row);
  store_.submit(std::move(batch), [this, row, done](std::exception_ptr error) {
    if (error) {
      sent_or_dropped();
      return done("could not store the mail");
    }
    enqueue({row});
    done("");
  });
}

bool MailOutbox::admit(const std::string& address) {
  static RateLimitedLog log;
  const auto now = std::chrono::steady_clock::now();
  const auto hour_ago = now - std::chrono::hours(1);
  std::string why;
  {
    std::lock_guard lock(limits_mutex_);
    if (recent_.size() > 4 * kMaxOutboxRows) {  // forget addresses idle for an hour
      std::erase_if(recent_, [&](const auto& kv) { return kv.second.back() <= hour_ago; });
    }
    auto& times = recent_[to_lower(address)];
    while (!times.empty() && times.front() <= hour_ago) times.pop_front();
    if (pending_ >= kMaxOutboxRows) {
      why = std::to_string(kMaxOutboxRows) + " mails already wait in the outbox";
    } else if (times.size() >= kMailPerAddressHour) {
      why = std::to_string(kMailPerAddressHour) + " mails to this address in the last hour";
    } else {
      times.push_back(now);
      ++pending_;
      return true;
    }
  }
  if (auto n = log.due()) {
    spdlog::warn("mail: dropped a mail to {}: {}{}", address, why,
                 *n > 1 ? " (" + std::to_string(*n) + " dropped since the last report)"
                        : std::string());
  }
  return false;
}

void MailOutbox::sent_or_dropped() {
  std::lock_guard lock(limits_mutex_);
  if (pending_ > 0) --pending_;
}

void MailOutbox::enqueue(std::vector<store::MailRow> rows) {
  if (rows.empty()) return;
  {
    std::lock_guard lock(mutex_);
    if (shared_) {
      poll_now_ = true;  // the rows are in the shared outbox: claimed from there
      wake_.notify_all();
      return;
    }
    for (auto& r : rows) queue_.push_back({std::move(r), 0, std::chrono::steady_clock::now()});
  }
  wake_.notify_all();
}

void MailOutbox::run() {
  RateLimitedLog failures;
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (queue_.empty()) {
      wake_.wait(lock);
      continue;
    }
    // The earliest due mail; others wait their turn (order kept among mail due at once).
    auto next = queue_.begin();
    for (auto it = queue_.begin(); it != queue_.end(); ++it) {
      if (it->due < next->due) next = it;
    }
    if (next->due > std::chrono::steady_clock::now()) {
      wake_.wait_until(lock, next->due);
      continue;
    }
    Pending p = std::move(*next);
    queue_.erase(next);
    lock.unlock();
    SmtpResult result;
    try {
      result = send_(settings_, p.row.recipient, p.row.message);
    } catch (const std::exception& e) {
      result.error = e.what();
    }
    const std::string& error = result.error;
    if (result.permanent) {
      // A 5xx will be a 5xx again: retrying would only repeat it for ever (review item 6).
      store::Batch batch;
      batch.delete_mail(p.row.key);
      store_.submit(std::move(batch), [key = p.row.key](std::exception_ptr e) {
        if (e) spdlog::error("mail: {} was refused but could not be dropped", key);
      });
      spdlog::warn("mail: {} to {} refused for good ({}); dropped", p.row.key, p.row.recipient,
                   error);
      sent_or_dropped();
    } else if (error.empty()) {
      sent_or_dropped();
      store::Batch batch;
      batch.delete_mail(p.row.key);
      store_.submit(std::move(batch), [key = p.row.key](std::exception_ptr e) {
        if (e) spdlog::error("mail: {} was sent but could not be marked sent", key);
      });
      spdlog::info("mail: sent {} to {}", p.row.key, p.row.recipient);
    } else {
      ++p.attempts;
      const auto backoff = std::chrono::seconds(std::min(300, 1 << std::min(p.attempts - 1, 9)));
      p.due = std::chrono::steady_clock::now() + backoff;
      if (auto n = failures.due()) {
        spdlog::warn("mail: cannot send {} to {} ({}); retrying in {} s{}", p.row.key,
                     p.row.recipient, error, backoff.count(),
                     *n > 1 ? " (" + std::to_string(*n) + " failures since the last report)"
                            : std::string());
      }
    }
    lock.lock();
    if (!error.empty() && !result.permanent) queue_.push_back(std::move(p));
  }
}

}  // namespace plateau::server
