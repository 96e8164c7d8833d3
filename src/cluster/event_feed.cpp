#include "cluster/event_feed.h"

#include <libpq-fe.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>

#include "cluster/cluster_db.h"
#include "cluster/feed_db.h"

namespace plateau::cluster {

namespace {

std::int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// A page is read again at once when full; past this many pages in one round the table waits
// for the next round (the others' batches are not starved by one long catch-up).
constexpr int kPagesPerRound = 4;

}  // namespace

std::optional<BatchNotice> parse_batch_notice(const std::string& payload) {
  if (payload.size() > 100) return std::nullopt;
  std::int64_t v[4];
  const char* p = payload.data();
  const char* end = p + payload.size();
  for (int i = 0; i < 4; ++i) {
    auto [next, ec] = std::from_chars(p, end, v[i]);
    if (ec != std::errc() || next == p || v[i] < 0) return std::nullopt;
    p = next;
    if (i < 3) {
      if (p == end || *p != ',') return std::nullopt;
      ++p;
    }
  }
  if (p != end || v[0] <= 0 || v[1] <= 0 || v[1] > v[2]) return std::nullopt;
  return BatchNotice{v[0], v[1], v[2], v[3]};
}

// The LISTEN connection: raw libpq, for its socket and PQnotifies.
struct EventFeed::Listen {
  PGconn* conn = nullptr;
  ~Listen() {
    if (conn) PQfinish(conn);
  }
};

EventFeed::EventFeed(FeedOptions options, FeedSink& sink)
    : options_(std::move(options)), sink_(sink) {
  url_ = url_for_node(options_.url, options_.node_id);
  wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wake_fd_ < 0) throw std::runtime_error("event feed: eventfd failed");
}

EventFeed::~EventFeed() {
  stop();
  if (wake_fd_ >= 0) close(wake_fd_);
}

void EventFeed::start() {
  thread_ = std::thread([this] { loop(); });
}

void EventFeed::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  const std::uint64_t one = 1;
  [[maybe_unused]] auto n = ::write(wake_fd_, &one, sizeof one);
  if (thread_.joinable()) thread_.join();
}

void EventFeed::want(std::int64_t table_id) {
  {
    std::lock_guard lock(mutex_);
    wanted_.insert(table_id);
  }
  const std::uint64_t one = 1;
  [[maybe_unused]] auto n = ::write(wake_fd_, &one, sizeof one);
}

void EventFeed::wake() {
  const std::uint64_t one = 1;
  [[maybe_unused]] auto n = ::write(wake_fd_, &one, sizeof one);
}

void EventFeed::presence_changed(const std::string& name) {
  {
    std::lock_guard lock(mutex_);
    presence_.insert(name);
  }
  const std::uint64_t one = 1;
  [[maybe_unused]] auto n = ::write(wake_fd_, &one, sizeof one);
}

bool EventFeed::run(std::function<void(Connection*)> job) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ || jobs_.size() >= kMaxJobs) return false;
    jobs_.push_back(std::move(job));
  }
  const std::uint64_t one = 1;
  [[maybe_unused]] auto n = ::write(wake_fd_, &one, sizeof one);
  return true;
}

void EventFeed::publish(std::string payload) {
  if (payload.size() > kMaxNoticeBytes) {
    spdlog::warn("node {}: a notice of {} bytes is too long; dropped", options_.node_id,
                 payload.size());
    return;
  }
  {
    std::lock_guard lock(mutex_);
    if (outbox_.size() >= 10000) {
      if (auto n = dropped_log_.due()) {
        spdlog::warn("node {}: too many notices waiting; {} dropped since the last report",
                     options_.node_id, *n);
      }
      return;
    }
    outbox_.push_back(std::move(payload));
  }
  const std::uint64_t one = 1;
  [[maybe_unused]] auto n = ::write(wake_fd_, &one, sizeof one);
}

Connection& EventFeed::ready_write() {
  if (!write_) {
    write_ = std::make_unique<Connection>(url_);
    presence_all_ = true;
  } else if (!write_->ok()) {
    write_->reconnect();
    presence_all_ = true;
  }
  return *write_;
}

bool EventFeed::listen() {
  if (listen_ && listen_->conn && PQstatus(listen_->conn) == CONNECTION_OK) return true;
  listen_ = std::make_unique<Listen>();
  // The same keepalives as the other connections (pg_connection.h): a vanished server is
  // noticed, and the feed reconnects and reads what it missed.
  // (url_for_node gave a URI its query string already.)
  const bool uri = url_.starts_with("postgresql://") || url_.starts_with("postgres://");
  const std::string url = uri ? url_ +
                                    "&connect_timeout=5&keepalives_idle=30&keepalives_interval=10"
                                    "&keepalives_count=3"
                              : url_ +
                                    " connect_timeout=5 keepalives_idle=30 keepalives_interval=10"
                                    " keepalives_count=3";
  listen_->conn = PQconnectdb(url.c_str());
  if (PQstatus(listen_->conn) != CONNECTION_OK) {
    // Once per outage: it retries twice a second meanwhile.
    if (failures_++ == 0) {
      spdlog::warn("node {}: event feed cannot connect (retrying): {}", options_.node_id,
                   store::pg::redact_url(PQerrorMessage(listen_->conn)));
    }
    listen_.reset();
    return false;
  }
  PGresult* r = PQexec(listen_->conn, "LISTEN plateau_events; LISTEN plateau_notices");
  const bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
  PQclear(r);
  if (!ok) {
    spdlog::warn("node {}: event feed cannot LISTEN: {}", options_.node_id,
                 PQerrorMessage(listen_->conn));
    listen_.reset();
    return false;
  }
  PQsetnonblocking(listen_->conn, 1);
  failures_ = 0;
  if (listens_.fetch_add(1) > 0) {
    spdlog::info("node {}: event feed listening again; followed tables read again",
                 options_.node_id);
  }
  // Whatever was committed while nobody listened is read from each cursor.
  resync_all_ = true;
  presence_all_ = true;
  return true;
}

void EventFeed::drain_notifications() {
  if (!listen_ || !listen_->conn) return;
  if (!PQconsumeInput(listen_->conn) || PQstatus(listen_->conn) != CONNECTION_OK) {
    spdlog::warn("node {}: event feed lost its connection: {}", options_.node_id,
                 PQerrorMessage(listen_->conn));
    listen_.reset();
    return;
  }
  int bad = 0;
  while (PGnotify* n = PQnotifies(listen_->conn)) {
    const std::string channel = n->relname ? n->relname : "";
    std::string payload = n->extra ? n->extra : "";
    PQfreemem(n);
    if (channel == "plateau_events") {
      if (auto b = parse_batch_notice(payload)) {
        auto& last = to_read_[b->table_id];
        last = std::max(last, b->last_seq);
      } else if (++bad == 1) {
        spdlog::warn("node {}: a malformed plateau_events notification dropped", options_.node_id);
      }
    } else if (channel == "plateau_notices") {
      sink_.notice(payload);
    }
  }
}

void EventFeed::read_table(std::int64_t table_id) {
  for (int page = 0; page < kPagesPerRound; ++page) {
    const auto cursor = sink_.cursor(table_id);
    if (!cursor) return;
    auto rows = events_after(ready_write(), table_id, *cursor, options_.rows_per_read);
    const bool full = static_cast<int>(rows.size()) == options_.rows_per_read;
    if (!rows.empty()) sink_.deliver(table_id, std::move(rows));
    if (!full) return;
  }
  to_read_[table_id] = kReadAll;  // more next round
}

void EventFeed::read_pending() {
  // Most tables have a batch or two of news: a page this small serves them all at once.
  constexpr int kRowsPerTable = 16;
  std::vector<std::pair<std::int64_t, std::int64_t>> news;  // (table, cursor)
  for (const auto& [id, last] : to_read_) {
    const auto cursor = sink_.cursor(id);
    // Followed by nobody here, or told already (the link's answer moved the cursor there).
    if (!cursor || *cursor >= last) continue;
    news.emplace_back(id, *cursor);
  }
  to_read_.clear();
  std::vector<std::int64_t> more;  // tables that filled their small page
  for (std::size_t i = 0; i < news.size(); i += kTablesPerRead) {
    const std::vector<std::pair<std::int64_t, std::int64_t>> chunk(
        news.begin() + static_cast<std::ptrdiff_t>(i),
        news.begin() + static_cast<std::ptrdiff_t>(std::min(news.size(), i + kTablesPerRead)));
    std::vector<store::EventRow> rows;
    try {
      rows = events_after_tables(ready_write(), chunk, kRowsPerTable);
    } catch (const std::exception&) {
      // Read again, from their cursors, once the database answers.
      for (std::size_t j = i; j < news.size(); ++j) to_read_[news[j].first] = kReadAll;
      for (auto id : more) to_read_[id] = kReadAll;
      throw;
    }
    // By table id, then seq: one delivery per table.
    std::size_t begin = 0;
    while (begin < rows.size()) {
      const std::int64_t id = rows[begin].table_id;
      std::size_t end = begin;
      while (end < rows.size() && rows[end].table_id == id) ++end;
      std::vector<store::EventRow> mine(std::make_move_iterator(rows.begin() + begin),
                                        std::make_move_iterator(rows.begin() + end));
      if (static_cast<int>(mine.size()) == kRowsPerTable) more.push_back(id);
      sink_.deliver(id, std::move(mine));
      begin = end;
    }
  }
  for (std::size_t i = 0; i < more.size(); ++i) {
    try {
      read_table(more[i]);
    } catch (const std::exception&) {
      for (std::size_t j = i; j < more.size(); ++j) to_read_[more[j]] = kReadAll;
      throw;
    }
  }
}

void EventFeed::work() {
  std::deque<std::function<void(Connection*)>> jobs;
  {
    std::lock_guard lock(mutex_);
    jobs.swap(jobs_);
  }
  for (auto& job : jobs) {
    Connection* db = nullptr;
    if (steady_ms() >= write_retry_at_) {
      try {
        db = &ready_write();
      } catch (const std::exception&) {
        write_.reset();
        write_retry_at_ = steady_ms() + 500;
      }
    }
    try {
      job(db);
    } catch (const std::exception& e) {
      // A job's own failure (its read failed): the connection is opened again next time.
      spdlog::warn("node {}: event feed: a job failed: {}", options_.node_id, e.what());
      write_.reset();
    }
  }
  // The database was unreachable a moment ago: what waits stays queued until the next try.
  if (steady_ms() < write_retry_at_) return;
  std::set<std::string> presence;
  std::deque<std::string> outbox;
  {
    std::lock_guard lock(mutex_);
    for (auto id : wanted_) to_read_[id] = kReadAll;
    wanted_.clear();
    presence.swap(presence_);
    outbox.swap(outbox_);
  }
  if (resync_all_) {
    for (auto id : sink_.followed()) to_read_[id] = kReadAll;
  }
  try {
    Connection& db = ready_write();
    if (presence_all_) {
      reset_presence(db, options_.node_id, sink_.online_names());
      presence_all_ = false;
      presence.clear();
      listing_.clear();  // and the listing written again
    }
    {
      std::vector<std::string> online, offline;
      for (const auto& name : presence) (sink_.online(name) ? online : offline).push_back(name);
      set_present(db, options_.node_id, online, offline);
    }
    presence.clear();
    while (!outbox.empty()) {
      db.run("SELECT pg_notify('plateau_notices', $1)", store::pg::Params().text(outbox.front()));
      outbox.pop_front();
    }
    resync_all_ = false;
    read_pending();
    const std::int64_t now = steady_ms();
    const bool refresh = now - listing_at_ms_ >= 1000;
    if (refresh) {
      listing_at_ms_ = now;
      std::string listing = sink_.listing();
      if (listing != listing_) {
        put_listing(db, options_.node_id, listing);
        listing_ = std::move(listing);
      }
    }
    sink_.round(db, refresh);
    write_failures_ = 0;
  } catch (const std::exception& e) {
    // Once per outage; meanwhile tried again twice a second.
    if (write_failures_++ == 0) {
      spdlog::warn("node {}: event feed (retrying): {}", options_.node_id, e.what());
    }
    write_retry_at_ = steady_ms() + 500;
    write_.reset();
    // What was not done is done again once the database is back: every followed table from
    // its cursor, every presence row; undelivered notices are lost (logged).
    resync_all_ = true;
    presence_all_ = true;
    if (!outbox.empty()) {
      spdlog::warn("node {}: {} notices lost (the database cannot be reached)", options_.node_id,
                   outbox.size());
    }
  }
}

void EventFeed::wait_for_input() {
  pollfd fds[2] = {{wake_fd_, POLLIN, 0}, {-1, POLLIN, 0}};
  if (listen_ && listen_->conn) fds[1].fd = PQsocket(listen_->conn);
  // Work left over (a long catch-up, a lost connection): come back soon.
  const int timeout =
      (!to_read_.empty() || resync_all_) && steady_ms() >= write_retry_at_ ? 20 : options_.poll_ms;
  ::poll(fds, fds[1].fd >= 0 ? 2 : 1, timeout);
  std::uint64_t count = 0;
  [[maybe_unused]] auto n = ::read(wake_fd_, &count, sizeof count);
}

void EventFeed::loop() {
  std::int64_t retry_at = 0;
  for (;;) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
    }
    try {
      if (steady_ms() >= retry_at && !listen()) retry_at = steady_ms() + 500;
      drain_notifications();
      // Lost just now: listen again at once (listen() reads every followed table again).
      if (!listen_ && steady_ms() >= retry_at && !listen()) retry_at = steady_ms() + 500;
      work();
    } catch (const std::exception& e) {
      spdlog::warn("node {}: event feed: {}", options_.node_id, e.what());
    }
    wait_for_input();
  }
}

}  // namespace plateau::cluster
