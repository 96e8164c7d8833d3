#pragma once
// The events, presence, listings and notices of the other nodes, on this node (issue 16 item 3;
// docs/CLUSTER.md, "Events across nodes"). It implements RemoteFollow (remote_follow.h) over
// the node's event feed (cluster/event_feed.h):
//
//   * follow(client, table, ..., after): the client hears every event of that table after
//     `after`, in seq order, each once: the feed reads the rows after the least cursor of the
//     table's followers once per batch, decodes each into one RenderedEvent shared by all of
//     them (the bytes a spectator on the owner gets), and gives each follower those after its
//     own cursor (send_shared; a catch-up of more than kPacedAfter events goes through
//     send_replayed, paced by the transport's output bound). The owner may change (takeover):
//     the events stay in one table, so the followers go on.
//   * presence: who is logged in here is written to the database; `who` lists the names of
//     every live node (remote_names(), refreshed once a second).
//   * listings: this node's visible tables are written to the database; `tables` and
//     /api/tables add those of every live node (remote_listing(), refreshed once a second).
//   * seats: the users seated at this node's tables not over are written to the database
//     (plateau_seats, indexed by name): a new table's at the feed's next round (milliseconds
//     after it is stored), any other change within a second; a login on another node finds
//     them there.
//   * notices to a user on whatever node: a challenge (notify_seated) makes the challenged
//     player, connected elsewhere, follow the new table from its first event; a player who
//     logs in or resumes here follows the tables of other nodes where they sit (arrived).
//     Notices are JSON on plateau_notices, validated on receipt: a bad one is logged and
//     dropped.
//
// Bounds: kMaxTablesPerClient tables followed per connection, kMaxTables tables per node
// (beyond, follow() answers the client an error and does nothing).
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cluster/event_feed.h"
#include "cluster/feed_db.h"
#include "server/rate_limited_log.h"
#include "server/remote_follow.h"

namespace plateau::server {

class Lobby;

class RemoteFeed : public RemoteFollow, private cluster::FeedSink {
 public:
  static constexpr std::size_t kMaxTablesPerClient = 64;
  static constexpr std::size_t kMaxTables = 20000;
  static constexpr std::size_t kPacedAfter = 16;   // events at once: paced (send_replayed)
  static constexpr std::size_t kMaxListed = 2000;  // tables of this node in its listing
  static constexpr int kMaxSeatedFollowed = 32;    // tables followed at a login

  // `lobby` outlives the feed. `options`: the store URL and this node's id. Does not connect.
  RemoteFeed(Lobby& lobby, cluster::FeedOptions options);
  ~RemoteFeed() override;
  void start() { feed_.start(); }
  void stop() { feed_.stop(); }

  // RemoteFollow (remote_follow.h). Thread-safe, never blocks on the database.
  void follow(const std::shared_ptr<Client>& client, std::int64_t table_id, const std::string& game,
              int number, std::int64_t after_seq) override;
  void unfollow(const std::shared_ptr<Client>& client, std::int64_t table_id) override;
  // Sends under the feed's lock, so that the feed never delivers the same seq too, nor a later
  // one before it.
  std::map<std::int64_t, std::int64_t> positions(const std::shared_ptr<Client>& client) override;
  void send_answer(const std::shared_ptr<Client>& client, std::int64_t table_id, std::int64_t seq,
                   std::int64_t since, const std::function<void()>& send) override;

  // Runs `job` on the feed's thread with its connection (cluster/event_feed.h EventFeed::run):
  // a database read that must not wait on an I/O thread. False if too many wait.
  bool run_on_feed(std::function<void(cluster::Connection*)> job) {
    return feed_.run(std::move(job));
  }
  // `name` logged in or out on this node (the lobby's presence changed). Never blocks.
  void presence_changed(const std::string& name);
  // `client` logged in (or resumed) as `user`: it follows the tables of other live nodes where
  // `user` sits (read on the feed's thread). Never blocks.
  void arrived(const std::shared_ptr<Client>& client, const std::string& user);
  // `client` is no longer `user` (logout, or a login as another): the tables it followed as
  // that user's seat are unfollowed (those it watches stay). Never blocks.
  void left(const std::shared_ptr<Client>& client, const std::string& user);
  // Table `table_id` (game, number) was made here with `seated` among its players: each of
  // them is told on plateau_notices (connected here or not: also elsewhere, maybe), so that
  // every other node they are connected to makes them follow it from its first event. Never
  // blocks.
  // `skip_node`/`skip_cid`: the challenger's connection on another node, when its command
  // was forwarded here: it heard the challenge as its answer and follows the table already.
  void notify_seated(std::int64_t table_id, const std::string& game, int number,
                     const std::vector<std::string>& seated, const std::string& skip_node = "",
                     std::uint64_t skip_cid = 0);
  // The connections here that follow table `table_id` of another node (players and
  // spectators). Thread-safe, never blocks on the database.
  std::vector<std::shared_ptr<Client>> followers_of(std::int64_t table_id) const;
  // The connections here that still follow table `table_id` through the feed although this
  // node serves it now (they followed it before a takeover: its spectators), the connections
  // of its seated users left out (the table tells those itself). Thread-safe.
  std::vector<std::shared_ptr<Client>> spectators_here(std::int64_t table_id) const;
  // Publishes `payload` on plateau_notices (a user notice: user_notice.h). Never blocks.
  void publish(std::string payload) { feed_.publish(std::move(payload)); }

  // The names logged in on the other live nodes (sorted), as read at most a second ago.
  std::vector<std::string> remote_names() const;
  // The visible tables of the other live nodes: (listing_json item, listing_line text), as read
  // at most a second ago.
  struct Listed {
    nlohmann::json item;
    std::string line;
  };
  std::vector<Listed> remote_listing() const;

  // A notice's payload checked: the follow notice it carries, or nullopt (bad or foreign).
  struct FollowNotice {
    std::string to;
    std::int64_t table_id = 0;
    std::string game;
    int number = 0;
    std::int64_t after = 0;
    // The connection told already (the forwarded challenger's: user_notice.h `skip`), if any.
    std::string skip_node;
    std::uint64_t skip_cid = 0;
  };
  static std::optional<FollowNotice> parse_notice(const std::string& payload);

 private:
  // FeedSink (event_feed.h), on the feed's thread.
  std::optional<std::int64_t> cursor(std::int64_t table_id) override;
  void deliver(std::int64_t table_id, std::vector<store::EventRow> rows) override;
  std::vector<std::int64_t> followed() override;
  void notice(const std::string& payload) override;
  bool online(const std::string& name) override;
  std::vector<std::string> online_names() override;
  std::string listing() override;
  void round(cluster::Connection& db, bool refresh) override;
  // Writes the difference between this node's seats now and those written last (all of them
  // again after a failure). On the feed's thread.
  void write_seats(cluster::Connection& db);
  // Adds the seats of the tables made since the last round (new_tables_). On the feed's thread.
  void write_new_seats(cluster::Connection& db);

  struct Follower {
    std::weak_ptr<Client> client;
    const Client* key = nullptr;
    std::int64_t after = 0;
    // The seat's user, for a player made to follow the table (a notice, a login): should the
    // table come to this node (a takeover), the table tells them itself and they are dropped.
    std::string seated_as;
    // Seqs after `after` told already by a forwarded command's answer that came before the
    // events in between (send_answer): the feed leaves them out.
    std::set<std::int64_t> told;
  };
  struct Followed {
    std::string game;
    int number = 0;
    std::vector<Follower> followers;
  };
  bool local(std::int64_t table_id, const std::string& game, int number) const;
  // Removes the followers of table `table_id` that `drop` picks (the table too if none is
  // left), keeping by_client_ in step. With mutex_ held.
  void erase_followers_locked(std::int64_t table_id,
                              const std::function<bool(const Follower&)>& drop);
  // The connections here of the users seated at this node's table (game, number).
  std::set<const Client*> seated_clients(const std::string& game, int number) const;
  std::string refusal_locked(const std::shared_ptr<Client>& client, bool new_table) const;
  void add(const std::shared_ptr<Client>& client, std::int64_t table_id, const std::string& game,
           int number, std::int64_t after_seq, const std::string& seated_as);

  Lobby& lobby_;
  cluster::EventFeed feed_;
  mutable std::mutex mutex_;
  std::map<std::int64_t, Followed> tables_;
  // For each client key, the tables where it has a follower (live or not): what a client
  // follows is found without going through every table (positions() runs per forwarded
  // command).
  std::map<const Client*, std::set<std::int64_t>> by_client_;
  std::vector<std::pair<std::weak_ptr<Client>, std::string>> arrivals_;
  std::vector<std::string> remote_names_;
  std::vector<Listed> remote_listing_;
  unsigned refreshes_ = 0;                    // the feed's thread only
  std::set<cluster::SeatRow> seats_written_;  // the feed's thread only
  bool seats_reset_ = true;  // the feed's thread only: replace every row of this node
  std::vector<std::pair<std::string, int>> new_tables_;  // (game, number) made since the last round
  RateLimitedLog bad_notices_;
  RateLimitedLog refusals_;
};

}  // namespace plateau::server
