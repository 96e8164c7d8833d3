#pragma once
// What a table needs from the rest of the server (issue 13, item 3), as one small interface the
// table receives, so that table code need not include lobby.h: the I/O context and the pools,
// the store, who is connected as a user, whether a name is an account, the rating of a finished
// game, and removing a table that never became durable. The Lobby implements it by forwarding
// to its services (presence.h, ratings.h, table_directory.h, accounts.h).
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "server/asio.h"
#include "server/correspondence_clock.h"
#include "server/limits.h"
#include "server/wall_clock.h"
#include "store/store.h"

namespace plateau::server {

class Client;
class Table;
struct Event;

// What a table tells the mail renderer about one action that produced table events (issue 15,
// item 3): the board, its players, who is to move, and its page as it stands after the action.
struct TableNotice {
  std::int64_t table_id = 0;
  std::string game;   // "phutball"
  int board = 0;      // 101
  std::string title;  // "Phutball Board 101"
  std::vector<std::string> players;  // the seats held by users, in seat order
  std::vector<std::string> subscribers;  // `subscribe`: they get the same mail as the players
  std::string next_user;             // the user to move; "" for none
  std::function<std::string()> page;  // the board page (the text transport's bytes); "" in set-up
  // Notifications (issue 15, item 4; notifier.h). A board challenged by mail: every player gets
  // every page. Otherwise only players without a live connection (`connected`) get mail, and
  // only about what concerns them.
  bool by_mail = false;
  std::function<bool(const std::string& user)> connected;
  // The action is the correspondence nag of this user: only they get its mail.
  std::string nag_user;
};

// The mail renderer as a table sees it (server/mail_outbox.h implements it).
class TableMailer {
 public:
  virtual ~TableMailer() = default;
  // On the table's strand, while the action's writes are gathered: adds the mail to send about
  // `events` (the action's table events, numbered) to `batch`, the action's own transaction.
  // Returns a step to run once that transaction is durable (hand the mail to the sender), or
  // null. May throw: the action then fails as a whole, nothing written.
  virtual std::function<void()> on_table_events(const TableNotice& notice,
                                                const std::vector<const Event*>& events,
                                                store::Batch& batch) = 0;
  // A mail about no one table action (the daily digest, notifier.h) to account `user`, added
  // to `batch` under `key` (unique per mail). Returns the step to run once `batch` is durable,
  // or null when nothing was added (no address, a cap reached, no --smtp).
  virtual std::function<void()> add_mail(const std::string& key, const std::string& user,
                                         const std::string& subject, const std::string& body,
                                         store::Batch& batch) = 0;
  // Several nodes on one database (docs/MAIL.md "Several nodes"): hands this node's part of
  // UTC day `day`'s digests to the assembly shared by the nodes, which sends each user one
  // digest of every node's boards. `part`: a JSON object, lower-case user -> [{"title",
  // "label", "since"}] (the boards served here that wait on that user). `done(assembled)`
  // runs later on a mail thread: true once that day's digests are in the outbox (assembled by
  // any node), false while other live nodes' parts are missing or the database cannot be
  // reached (hand the part again at the next tick). Returns false, doing nothing, for a server
  // alone: the caller writes the digests itself (add_mail).
  virtual bool share_digest_part(std::int64_t /*day*/, std::string /*part*/,
                                 std::function<void(bool assembled)> /*done*/) {
    return false;
  }
};

class TableServices {
 public:
  virtual ~TableServices() = default;
  // Wall clock in ms since the epoch (Lobby::now_ms() is this one); a test may move it
  // forward (wall_clock.h).
  static std::int64_t now_ms() { return wall_clock_ms(); }
  virtual boost::asio::io_context& io() = 0;
  // The limits of `plateau serve` (limits.h); a table reads events_kept. Fixed at start-up.
  virtual const LobbyLimits& limits() const = 0;
  virtual store::Store& store() = 0;
  // The CPU players' pool.
  virtual boost::asio::thread_pool& workers() = 0;
  // Open connections of `user` (case-insensitive). Thread-safe.
  virtual std::vector<std::shared_ptr<Client>> clients_of(const std::string& user) const = 0;
  // True if `name` (any case) is a registered account. Thread-safe.
  virtual bool is_account(const std::string& name) const = 0;
  // Updates both players' ratings for one game of `game` (score_a: 1, 0.5 or 0 for player a),
  // adds the rows to `batch` (undone in memory if it fails), and returns the page's lines.
  virtual std::vector<std::string> rate_game(const std::string& game, const std::string& a,
                                             const std::string& b, double score_a,
                                             store::Batch& batch) = 0;
  // Removes `table` (numbered `number` in `game`) from the directory if it is still the one
  // there (a new table whose first write failed never existed). Thread-safe.
  virtual void forget_table(const std::string& game, int number, const Table* table) = 0;
  // The mail renderer, when the server sends mail (plateau serve --smtp); null otherwise.
  virtual TableMailer* mailer() { return nullptr; }
  // The vacations of `user` (vacations.h); none by default. Thread-safe.
  virtual std::vector<VacationPeriod> vacations_of(const std::string& /*user*/) const {
    return {};
  }
  // True if `name` (any case) is an account or a user online, on any node (`/invite`).
  // Thread-safe, never blocks on the database.
  virtual bool user_exists(const std::string& name) const {
    return is_account(name) || !clients_of(name).empty();
  }
  // Several nodes (docs/CLUSTER.md, "Messages to a user on any node"): `event`, a message for
  // `user` alone that is not a table event (an invite, a queued move's notice), which this
  // node's connections of `user` were just told, goes to the user's connections on the other
  // nodes. `caller` ran the command (`caller_user` its user): when it is another node's client
  // and `user` itself, it heard the event as its answer, and its node leaves it out. Never
  // throws, never blocks. Alone: nothing.
  virtual void tell_elsewhere(const std::string& /*user*/, const Event& /*event*/,
                              const std::shared_ptr<Client>& /*caller*/,
                              const std::string& /*caller_user*/) {}
  // The same for `event`, a message to everyone at table `table_id` (or all but the caller)
  // that is not a table event (an ok or an error): the connections that follow the table on
  // the other nodes hear it; the caller's, if it is another node's client, is left out (it
  // heard it as its answer, or was not to hear it). Never throws. Alone: nothing.
  virtual void tell_followers_elsewhere(std::int64_t /*table_id*/, const Event& /*event*/,
                                        const std::shared_ptr<Client>& /*caller*/) {}
  // True if `user` has a live connection of any transport (a mail being run is none), here
  // or on another live node (online_elsewhere). Thread-safe.
  bool connected(const std::string& user) const;
  // Several nodes: whether `user` is logged in on another live node (as last read, at most
  // about two seconds old: docs/CLUSTER.md "Presence"). Thread-safe.
  virtual bool online_elsewhere(const std::string& /*user*/) const { return false; }
  // The node this server runs as among several on one PostgreSQL database (docs/CLUSTER.md;
  // --node-id), or "" for a server alone: then no write is fenced. Fixed before restore().
  virtual const std::string& node_id() const {
    static const std::string kAlone;
    return kAlone;
  }
};

}  // namespace plateau::server
