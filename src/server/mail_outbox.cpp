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

// A header value on one line: CR and LF (header injection) become spaces.
std::string header_value(std::string_view v) {
  std::string out(v);
  for (char& c : out) {
    if (c == '\r' || c == '\n') c = ' ';
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
    } else if (e->type == "request") {
      s.any = true;
      s.lines.push_back(e->data.value("text", std::string()));
    }
  }
  return s;
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
  m += "Subject: " + header_value(d.subject) + "\r\n";
  m += "Date: " + rfc5322_date(now_ms) + "\r\n";
  m += "Message-ID: <" + header_value(d.message_id) + ">\r\n";
  if (!d.in_reply_to.empty()) m += "In-Reply-To: <" + header_value(d.in_reply_to) + ">\r\n";
  if (!d.references.empty()) m += "References: " + header_value(d.references) + "\r\n";
  m += "Auto-Submitted: auto-replied\r\n";
  m += "MIME-Version: 1.0\r\n";
  m += "Content-Type: text/plain; charset=utf-8\r\n";
  m += "Content-Transfer-Encoding: 8bit\r\n\r\n";
  for (auto piece : split(d.body, '\n')) {
    std::string_view line = piece;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    while (line.size() > 998) {  // RFC 5322 §2.1.1
      m.append(line.substr(0, 998));
      m += "\r\n";
      line.remove_prefix(998);
    }
    m.append(line);
    m += "\r\n";
  }
  if (!d.body.empty() && d.body.back() == '\n') m.resize(m.size() - 2);
  return m;
}

std::string smtp_send_curl(const MailSettings& settings, const std::string& recipient,
                           const std::string& message) {
  static const bool inited = [] { return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK; }();
  if (!inited) return "libcurl could not start";
  CURL* curl = curl_easy_init();
  if (!curl) return "libcurl could not start";
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
  curl_slist_free_all(rcpt);
  curl_easy_cleanup(curl);
  return rc == CURLE_OK ? std::string() : std::string(curl_easy_strerror(rc));
}

MailOutbox::MailOutbox(Accounts& accounts, store::Store& store, MailSettings settings,
                       SmtpSend send)
    : accounts_(accounts), store_(store), settings_(std::move(settings)), send_(std::move(send)) {}

MailOutbox::~MailOutbox() { stop(); }

void MailOutbox::start(std::vector<store::MailRow> unsent) {
  if (!unsent.empty()) spdlog::info("mail: {} unsent from the last run", unsent.size());
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
  const Summary s = summarize(events);
  if (!s.any) return nullptr;
  MailDraft d;
  const std::string root = board_root(notice);
  if (s.created) {
    d.subject = "New " + notice.title;
    d.message_id = root;
  } else {
    d.subject = notice.title + (notice.next_user.empty() ? "" : " " + notice.next_user) +
                (s.comment ? " **" : "");
    d.message_id = notice.game + "." + std::to_string(notice.board) + "." +
                   std::to_string(s.last_seq) + "." + std::to_string(notice.table_id) + "@" +
                   settings_.domain();
    d.in_reply_to = root;
    d.references = "<" + root + ">";
  }
  std::string page = s.page.empty() || s.comment ? notice.page() : s.page;
  for (const auto& line : s.lines) d.body += line + "\n";
  if (!s.lines.empty() && !page.empty()) d.body += "\n";
  d.body += page;
  std::vector<store::MailRow> rows;
  std::set<std::string> seen;
  const std::int64_t now = wall_ms();
  for (const auto& player : notice.players) {
    const std::string address = accounts_.email_of(player);
    if (address.empty() || !seen.insert(to_lower(player)).second) continue;
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

void MailOutbox::queue(MailDraft draft, std::function<void(std::string error)> done) {
  static std::atomic<std::uint64_t> counter{0};
  const std::int64_t now = wall_ms();
  store::MailRow row{"reply." + std::to_string(now) + "." + std::to_string(++counter) + "." +
                         std::to_string(::getpid()),
                     draft.to, compose_mail(draft, settings_.from, now), now};
  store::Batch batch;
  batch.add_mail(row);
  store_.submit(std::move(batch), [this, row, done](std::exception_ptr error) {
    if (error) return done("could not store the mail");
    enqueue({row});
    done("");
  });
}

void MailOutbox::enqueue(std::vector<store::MailRow> rows) {
  if (rows.empty()) return;
  {
    std::lock_guard lock(mutex_);
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
    std::string error;
    try {
      error = send_(settings_, p.row.recipient, p.row.message);
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (error.empty()) {
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
    if (!error.empty()) queue_.push_back(std::move(p));
  }
}

}  // namespace plateau::server
