#pragma once
// The event feed of one node (issue 16 item 3; docs/CLUSTER.md, "Events across nodes"): the
// node's thread that LISTENs on PostgreSQL for what other nodes commit and announce, and does
// the feed's reads and writes, so that no client's strand ever waits on them.
//
//   * plateau_events 'TABLE,FIRST_SEQ,LAST_SEQ,EPOCH' (postgres_backend.cpp notify_events, one
//     per committed batch): for a table the sink follows (FeedSink::cursor), the rows with
//     seq > the cursor are read from table_events (not FIRST..LAST: reading from the cursor
//     closes any gap) and handed to FeedSink::deliver, in seq order, once per batch whatever
//     the number of followers. A table whose cursor is at LAST_SEQ already (its follower was
//     told by the node link's answer) is not read; the tables with news in one round are read
//     in one query (events_after_tables, a few rows each; one with more is read page by page);
//   * plateau_notices (publish()): a user-addressed notice, handed to FeedSink::notice as it
//     came (the sink validates it: the database is a trust boundary);
//   * presence: the names the sink says are online here are written to plateau_presence
//     (feed_db.h) as they change (presence_changed());
//   * the listing: FeedSink::listing() is written to plateau_listings when it changed, at most
//     once a second.
// When the LISTEN connection comes back (the database restarted, or the session was ended),
// every followed table is read again from its cursor and the presence rows are rewritten:
// nothing committed meanwhile is missed.
//
// The feed's own database sessions are named like the node's others (cluster_db.h
// application_name): one that LISTENs, one for the thread's reads and writes.
#include <atomic>
#include <climits>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "server/rate_limited_log.h"
#include "store/pg_connection.h"
#include "store/store_types.h"

namespace plateau::cluster {

using store::pg::Connection;

// What the feed serves; every function is called on the feed's thread.
class FeedSink {
 public:
  virtual ~FeedSink() = default;
  // The seq after which table `table_id` must be read (the least of its followers'), or
  // nullopt if nobody here follows it.
  virtual std::optional<std::int64_t> cursor(std::int64_t table_id) = 0;
  // `rows`: the events of `table_id` after the cursor, in seq order (at most a page; the feed
  // reads the next page at once when a page was full).
  virtual void deliver(std::int64_t table_id, std::vector<store::EventRow> rows) = 0;
  // Every table followed here (read again after the LISTEN connection came back).
  virtual std::vector<std::int64_t> followed() = 0;
  // A notice's payload as another node published it (unchecked).
  virtual void notice(const std::string& payload) = 0;
  // Whether `name` is online on this node now, and every name online here.
  virtual bool online(const std::string& name) = 0;
  virtual std::vector<std::string> online_names() = 0;
  // This node's listing (a JSON array, bounded): written when it differs from the last one
  // written.
  virtual std::string listing() = 0;
  // Every round of the feed's thread, with its connection: the sink's own reads and writes
  // (`refresh`: once a second, when the listing is written). May throw (the connection is
  // then opened again and the round retried later).
  virtual void round(Connection& db, bool refresh) = 0;
};

struct FeedOptions {
  std::string url;  // the store's PostgreSQL URL
  std::string node_id;
  int rows_per_read = 500;  // one page of events read for one table
  int poll_ms = 250;        // the longest the thread sleeps (listing, reconnection)
};

// A notification of plateau_events, parsed. nullopt (never a throw) for a payload that is not
// four decimal integers 'TABLE,FIRST,LAST,EPOCH' with TABLE > 0 and 0 < FIRST <= LAST.
struct BatchNotice {
  std::int64_t table_id = 0, first_seq = 0, last_seq = 0, epoch = 0;
};
std::optional<BatchNotice> parse_batch_notice(const std::string& payload);

// The largest notice payload (PostgreSQL refuses 8000 bytes and more).
inline constexpr std::size_t kMaxNoticeBytes = 7900;

class EventFeed {
 public:
  // Does not connect yet: start() does, on the thread.
  EventFeed(FeedOptions options, FeedSink& sink);
  ~EventFeed();  // stop()
  EventFeed(const EventFeed&) = delete;
  EventFeed& operator=(const EventFeed&) = delete;

  void start();
  void stop();  // idempotent; joins the thread

  // Read table `table_id` from its cursor now (a new follower). Thread-safe, never blocks.
  void want(std::int64_t table_id);
  // `name` logged in or out here: its presence row is written from FeedSink::online. Thread-
  // safe, never blocks.
  void presence_changed(const std::string& name);
  // Runs a round soon (FeedSink::round has work). Thread-safe, never blocks.
  void wake();
  // Runs `job` on the feed's thread, with its read/write connection (nullptr while the
  // database cannot be reached: the job then decides what to do), at its next round: a read
  // that must not wait on an I/O thread. Thread-safe, never blocks. False (the job dropped)
  // when kMaxJobs wait already. Jobs not run when the feed stops are dropped.
  static constexpr std::size_t kMaxJobs = 10000;
  bool run(std::function<void(Connection*)> job);
  // Publishes `payload` (<= kMaxNoticeBytes, else dropped and logged) on plateau_notices.
  // Thread-safe, never blocks; lost if the database is unreachable (logged).
  void publish(std::string payload);

  const std::string& node_id() const { return options_.node_id; }

  // How many times the LISTEN connection was opened (1 after the start; tests and logs).
  int listens() const { return listens_.load(); }

 private:
  void loop();
  bool listen();               // (re)opens the LISTEN connection; false if down
  void drain_notifications();  // PQconsumeInput / PQnotifies
  void work();                 // reads, presence, notices, listing
  void read_table(std::int64_t table_id);
  // Reads every table of to_read_ with news past its cursor: a few rows each in one query per
  // kTablesPerRead tables, then page by page (read_table) those that had more.
  void read_pending();
  void wait_for_input();
  Connection& ready_write();

  FeedOptions options_;
  FeedSink& sink_;
  std::string url_;
  struct Listen;
  std::unique_ptr<Listen> listen_;     // the thread's only
  std::unique_ptr<Connection> write_;  // the thread's only
  // Tables to read, each with the last seq announced for it (kReadAll: read whatever the
  // cursor, e.g. a new follower or a reconnection). The thread's only.
  static constexpr std::int64_t kReadAll = INT64_MAX;
  std::map<std::int64_t, std::int64_t> to_read_;
  bool resync_all_ = false;         // the thread's only
  bool presence_all_ = true;        // the thread's only
  std::int64_t listing_at_ms_ = 0;  // the thread's only
  std::string listing_;             // the thread's only: last written
  std::atomic<int> listens_{0};
  int failures_ = 0;                 // the thread's only: failed connections since the last success
  int write_failures_ = 0;           // the thread's only: failed rounds of work() in a row
  std::int64_t write_retry_at_ = 0;  // the thread's only: steady ms before which work() waits

  std::mutex mutex_;  // what other threads hand the thread:
  std::set<std::int64_t> wanted_;
  std::set<std::string> presence_;
  std::deque<std::string> outbox_;
  // Notices dropped for a full outbox (the database unreachable while strangers /invite):
  // one log line a second, with the count, so that the log does not grow per notice.
  server::RateLimitedLog dropped_log_;
  std::deque<std::function<void(Connection*)>> jobs_;
  bool stopping_ = false;
  int wake_fd_ = -1;  // an eventfd: poll() wakes on it
  std::thread thread_;
};

}  // namespace plateau::cluster
