#pragma once
// The lobby: the entry point of every command line from every transport, routing each to the
// service that answers it (issue 13, item 3): accounts (accounts.h), resume tokens
// (resume_tokens.h), presence (presence.h), ratings (ratings.h) and the table directory
// (table_directory.h); table and board commands go to the table's strand. Each client's
// commands run one at a time, in order. The Lobby is also the TableServices a table receives.
//
// Its handlers live in files by job: lobby.cpp (start-up, routing, tables), lobby_login.cpp
// (register, login, guest, resume, logout, limit), lobby_lists.cpp (who, games, help, tables,
// standings).
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/accounts.h"
#include "server/analysis_gate.h"
#include "server/asio.h"
#include "server/client.h"
#include "server/command.h"
#include "server/guest_names.h"
#include "server/limits.h"
#include "server/presence.h"
#include "server/rate_limited_log.h"
#include "server/ratings.h"
#include "server/record_answer.h"
#include "server/remote_follow.h"
#include "server/resume_tokens.h"
#include "server/table.h"
#include "server/table_directory.h"
#include "server/table_services.h"
#include "server/user_notice.h"
#include "server/vacations.h"
#include "store/store.h"

namespace plateau::cluster {
class Node;
class NodeLink;
class LinkReply;
struct LinkOrigin;
struct LoadedTable;
enum class LinkFailure;
}  // namespace plateau::cluster

namespace plateau::server {

// A stored table that start-up could not replay: it is left out (its rows stay in the store,
// untouched, and its number is never given to another table) and reported by /healthz/detail.
struct SkippedTable {
  std::string game;
  int number = 0;
  std::int64_t id = 0;
  std::string error;
};

struct LobbyStats {
  std::size_t connections = 0;
  std::size_t tables = 0;
  std::size_t accounts = 0;
};

struct MailCommand;

class RemoteFeed;

class Lobby : public TableServices {
 public:
  // `workers` run the CPU players; `hashing` (a separate, small pool) the password hashes, so
  // that logins can never starve bots. `limits` as parsed from `plateau serve`'s flags.
  Lobby(boost::asio::io_context& io, store::Store& store, boost::asio::thread_pool& workers,
        boost::asio::thread_pool& hashing, const LobbyLimits& limits);

  // Several nodes on one PostgreSQL database (docs/CLUSTER.md): this lobby serves as `node`
  // (registered, its tables claimed): restore() rebuilds only the tables it owns, new tables
  // take their number from the database, every table write is fenced by its epoch. Call
  // before restore(); `node` outlives the lobby's tables.
  void set_node(cluster::Node* node);
  const std::string& node_id() const override;
  // The event feed of tables other nodes own (remote_follow.h; null: alone, or none): the node
  // link calls it after forwarding a command that seats a client at a remote table or makes it
  // watch one. Call before accepting connections; `follow` outlives the lobby's clients.
  void set_remote_follow(RemoteFollow* follow) { remote_follow_ = follow; }
  RemoteFollow* remote_follow() const { return remote_follow_; }
  // The node link (cluster/node_link.h; null: alone). With it (lobby_forward.cpp) a table or
  // board command for a table this node does not serve but another live node owns is run by
  // that node for this client (its identity sent along) and answered here byte for byte; the
  // client then follows the table through remote_follow(). `open` and a challenge of CPU
  // players go to the live node with the fewest tables (ties stay here). Call after
  // set_node(), before accepting connections; `link` outlives the lobby's clients.
  // `tables_here`: new tables stay on this node (--place-tables here).
  void set_link(cluster::NodeLink* link, bool tables_here = false);
  // The node link's Serve and Gone (node_link.h): a command forwarded by another node, run
  // for a stand-in client of that node's client; a note ("gone": that client disconnected);
  // a connection from a peer that ended (its stand-ins leave their tables).
  void serve_forwarded(const cluster::LinkOrigin& from, nlohmann::json frame,
                       std::shared_ptr<cluster::LinkReply> reply);
  void forget_forwarded(const cluster::LinkOrigin& from);
  // GET /records (lobby_records.cpp; record_answer.h): table `r`'s record, passed once to
  // `done` (on any thread): this node's table's; else, unless `local_only` or alone, the record
  // from the live node that owns it (found as a forwarded command's owner, read on the event
  // feed's thread; kBusy past the lookup budget or with the feed full, kUnreachable if it does
  // not answer within the link's time-out). An invisible table without its key is kMissing, as
  // a table that does not exist. Never blocks, never throws.
  void fetch_record(const RecordRequest& r, bool local_only,
                    std::function<void(RecordAnswer)> done);
  // The node serving table (game, number) (its id, HOST:PORT and node port), or nullopt when no
  // live node does (or alone, or the database is unreachable). Thread-safe; one database round
  // trip. Clients must connect to that node until commands are forwarded (docs/CLUSTER.md).
  std::optional<store::NodeRow> owner_of(const std::string& game, int number);
  // Tables taken over from a dead node (cluster::Node's adopt): each is rebuilt from its rows
  // as at start-up (moves replayed, last events kept for resync), listed, and resumed: its
  // clock gets `downtime_ms` back, its CPU seats think again. A table that cannot be replayed
  // is skipped as restore() skips one. Thread-safe.
  void adopt_tables(std::vector<cluster::LoadedTable> tables, std::int64_t downtime_ms);

  // Every table this node serves writes its row once, fenced (Table::recheck_owner): those
  // another node took over meanwhile are dropped at once. Thread-safe.
  void recheck_tables();

  // Reads the store and rebuilds every table (with moves, clocks, queued moves, chat), then
  // re-arms clocks and CPU players; running clocks are not charged for the time the server was
  // down (from the store's last sign of life to now). Call once before accepting connections.
  // A table that cannot be replayed is skipped (logged, and listed by skipped_tables()); its
  // rows stay in the store and its number is not reused. Starts the resume-token sweep.
  void restore();
  // The tables restore() skipped. Thread-safe.
  std::vector<SkippedTable> skipped_tables() const;
  // After restore(): deletes the set-up tables of guests that nobody is online as and that
  // hold no valid resume token, that no other user sits at, as when their guest leaves.
  void discard_abandoned_guest_tables();
  // Stops table timers and the token sweep (shutdown).
  void stop();

  // Handles one command line of `client`; `done` runs once every reply is queued. Call from the
  // client's strand, one line at a time. `comment` (a mail's body as one chat line; "" for none)
  // goes with a move, a resignation or a draw/undo request or answer: the table adds it in the
  // same action, so that the players hear of both at once (one mail, not two: issue 15 d).
  void handle(const std::shared_ptr<Client>& client, std::string_view line,
              std::function<void()> done, const std::string& comment = {});
  void connected(const std::shared_ptr<Client>& client);
  void disconnected(const std::shared_ptr<Client>& client);

  // TableServices (table_services.h), forwarded to the services.
  boost::asio::io_context& io() override { return io_; }
  store::Store& store() override { return store_; }
  boost::asio::thread_pool& workers() override { return workers_; }
  std::vector<std::shared_ptr<Client>> clients_of(const std::string& user) const override {
    return presence_.clients_of(user);
  }
  bool is_account(const std::string& name) const override { return accounts_.exists(name); }
  // The bounds of `plateau serve` (tables read events_kept).
  const LobbyLimits& limits() const override { return limits_; }
  std::vector<std::string> rate_game(const std::string& game, const std::string& a,
                                     const std::string& b, double score_a,
                                     store::Batch& batch) override {
    return ratings_.rate_game(game, a, b, score_a, batch);
  }
  void forget_table(const std::string& game, int number, const Table* table) override {
    directory_.forget(game, number, table);
  }
  std::vector<VacationPeriod> vacations_of(const std::string& user) const override {
    return vacations_.of(user);
  }

  // lobby_notices.cpp: messages to one user on any node (user_notice.h; docs/CLUSTER.md,
  // "Messages to a user on any node").
  bool user_exists(const std::string& name) const override;
  void tell_elsewhere(const std::string& user, const Event& event,
                      const std::shared_ptr<Client>& caller,
                      const std::string& caller_user) override;
  void tell_followers_elsewhere(std::int64_t table_id, const Event& event,
                                const std::shared_ptr<Client>& caller) override;
  // A notice from plateau_notices (the feed's thread): true if it is a user or table notice,
  // checked (parse_user_notice) and told to this node's connections of its user, or to those
  // that follow its table here (those of another node's notice; the one it names as told
  // already left out), within the NoticeBudget; false if it is not one (the caller reads it as
  // another kind, or drops it). Never throws.
  bool user_notice(const std::string& payload);
  // The node link's id of `client`, one of this node's clients whose commands went to another
  // node (lobby_forward.cpp), or 0. Thread-safe.
  std::uint64_t forwarded_cid(const Client* client) const;
  // `client`, another node's client's stand-in here (lobby_forwarding.h): that node's id and
  // the client's id there; ("", 0) for any other client.
  static std::pair<std::string, std::uint64_t> stand_in_of(const Client* client);

  using TableServices::now_ms;  // wall clock in ms since the epoch
  std::shared_ptr<Table> find_table(const std::string& game, int number) const {
    return directory_.find(game, number);
  }
  // A table mirroring a game played elsewhere (a compatibility server's game), from its start
  // (table_external.cpp): `spec` is the game with its options, `seats` one owner per game seat
  // (kind "legacy" for a player of the external game, "cpu" for a computer seat it plays),
  // `creator` the table's creator (a name no account can take), `orphan_reason` the reason it
  // ends with (no result) if the server restarts first, `on_chat` hears the lines users say at
  // it. The caller then feeds it with Table::external_move, external_say and end_external.
  // Thread-safe. Returns the new table (its board number is the id users see); `stored` runs
  // once it is durable. Throws OptionError/RuleError (no table) on a bad spec or a wrong number
  // of seats.
  std::shared_ptr<Table> open_external_table(const std::string& spec, std::vector<SeatOwner> seats,
                                             std::string creator, std::string orphan_reason,
                                             Table::ChatListener on_chat,
                                             std::function<void()> stored);
  std::vector<TableSummary> table_summaries() const;
  // The events, presence, listings and notices of the other nodes (remote_feed.h; also its
  // remote_follow()). Call before accepting connections; `feed` outlives the clients.
  void set_remote_feed(RemoteFeed* feed);
  // The visible tables of the other live nodes, as `tables` and /api/tables list them: each
  // (listing_json item, listing_line text); none alone. Never blocks on the database.
  std::vector<std::pair<nlohmann::json, std::string>> remote_tables() const;
  // Who is online here: their names (sorted), and the name as logged in of `name` ("" if not).
  std::vector<std::string> online_names() const { return presence_.names(); }
  std::string online_name(const std::string& name) const { return presence_.online_name(name); }

  // Play by e-mail (issue 15; server/mail_session.h, mail_outbox.h).
  Accounts& accounts() { return accounts_; }
  // Sets `client`'s identity to account `user` without a password (the mail session, once it
  // has checked the sender's address). Call on the client's strand.
  void act_as(const std::shared_ptr<Client>& client, const std::string& user) {
    set_user(client, user, false);
  }
  // Revokes the resume token a login issued to a client that will never use it (a mail's
  // signup, which logs in as the text port's does; a mail's other commands log in without a
  // token): else each would push one of the user's real tokens out, max_tokens_per_user.
  void revoke_token(const std::string& selector) { tokens_.revoke(selector); }
  // Why an address cannot be an account's ("" when it can): the mail service's checks
  // (mail_message.h signup_address_problem), for `change address`. Without one (no mail
  // service) `change address` is refused. Call before commands arrive.
  void set_address_check(std::function<std::string(const std::string&)> check) {
    address_check_ = std::move(check);
  }
  // The mail renderer the tables use from now on (null: none). Call before mail can arrive.
  void set_mailer(TableMailer* mailer) { mailer_ = mailer; }
  TableMailer* mailer() override { return mailer_; }
  // Several nodes: whether inbound mail (`sender` lower-case, `message_id`) was run already by
  // any node (the mail_seen rows; mail_dedup.h), or nullopt when alone or the database cannot
  // be reached. Blocks for one round trip: call it off the I/O threads (lobby_cluster.cpp).
  std::optional<bool> mail_seen_stored(const std::string& sender, const std::string& message_id);
  // The outbox as restore() read it (unsent mail), handed over once.
  std::vector<store::MailRow> take_unsent_mail() { return std::exchange(unsent_mail_, {}); }
  // The inbound mail already run (mail_dedup.h) as restore() read it, handed over once.
  std::vector<store::MailSeenRow> take_seen_mail() { return std::exchange(seen_mail_, {}); }
  LobbyStats stats() const;

  // One command in flight (lobby_ctx.h).
  struct Ctx;

 private:
  void dispatch(Ctx& ctx, Command& c);
  // lobby_login.cpp
  void cmd_register(Ctx& ctx, const Command& c);
  void cmd_login(Ctx& ctx, const Command& c);
  void cmd_guest(Ctx& ctx);
  void cmd_logout(Ctx& ctx);
  void cmd_resume(Ctx& ctx, const Command& c);
  void cmd_limit(Ctx& ctx, const Command& c);
  // lobby_correspondence.cpp (issue 15, items 4 and 5): notify [every|digest|off], vacation
  // [DAYS|off]; every correspondence_tick the test clock is read again, every playing table
  // checks its correspondence time, and once a UTC day the digests go out (one batch with the
  // "digest_day" counter, so that a day's digests are written once).
  void cmd_notify(Ctx& ctx, const Command& c);
  void cmd_vacation(Ctx& ctx, const Command& c);
  void arm_correspondence_tick();
  // One tick's work: correspondence time checked at every playing table, digests, next tick.
  void correspondence_round();
  void send_digests();
  // lobby_account.cpp (issue 15 item 2: pbmserv's account and listing commands)
  void cmd_history(Ctx& ctx, const Command& c);
  void cmd_change(Ctx& ctx, const Command& c);
  void cmd_signoff(Ctx& ctx);
  void cmd_preview_new(Ctx& ctx, const Command& c);
  // subscribe BOARD (bounded per user), unsubscribe BOARD | all (every board's table in turn).
  void cmd_subscribe(Ctx& ctx, Command& c);
  // A line with inline credentials (mail_command.h) on a text transport: logs the connection in
  // as its user (as `login`, the same back-off; without a resume token), then runs the line.
  void login_and_run(Ctx& ctx, const MailCommand& m);
  // The callback that ends a register/login/guest command: issues a resume token, then on the
  // client's strand sets the identity (unless the client is gone), logs `what` ("login", ...)
  // and answers with `text` ("{}" = the name) and the token, or answers the error.
  std::function<void(std::string, std::string)> finish_login(const Ctx& ctx, bool guest,
                                                             std::string what, std::string text);
  // Every sweep period: expired resume tokens go, and with them the set-up tables of guests
  // left without one.
  void arm_token_sweep();
  // A guest left (disconnected, logged out, or logged in as someone else): unless it holds a
  // valid resume token, its unused set-up tables go.
  void guest_left(const std::string& name);
  void set_user(const std::shared_ptr<Client>& client, const std::string& user, bool guest);
  // lobby_lists.cpp
  void cmd_who(Ctx& ctx);
  void cmd_games(Ctx& ctx);
  void cmd_help(Ctx& ctx, const Command& c);
  void cmd_tables(Ctx& ctx, const Command& c);
  void cmd_standings(Ctx& ctx, const Command& c);
  // lobby_analyse.cpp (issue 17 item 7): analyse [GAME] BOARD[#n] [LEVEL], admitted by
  // analyses_, the position copied by the table, the search on the workers pool; the answer
  // (or its error) ends the command.
  void cmd_analyse(Ctx& ctx, const Command& c);
  // lobby.cpp
  void cmd_open(Ctx& ctx, const Command& c);
  void cmd_table(Ctx& ctx, const Command& c);
  void cmd_challenge(Ctx& ctx, const Command& c);
  void to_table(Ctx& ctx, Command& c);
  // handle() itself; `local_only` keeps it on this node (lobby_forward.cpp's fallback).
  void run_line(const std::shared_ptr<Client>& client, std::string_view line,
                std::function<void()> done, const std::string& comment, bool local_only);
  // lobby_forward.cpp. True when the command was sent to another node (ctx.done runs once its
  // answer is here): a table command for a table another live node owns (the board named, or
  // the client's current table there); a new table (`open`, or a challenge when
  // `movable`, i.e. without other people) when another live node has fewer tables.
  bool forward_table_command(Ctx& ctx, const Command& c);
  bool forward_new_table(Ctx& ctx, bool movable);
  // Sends ctx's line to node `to` for ctx's client (its current remote table with it unless
  // `new_table`); relays the answer, applies its trailer (follow, unfollow, current table), then
  // ends the command; `on_fail` if no answer comes (it must end the command).
  void send_forwarded(Ctx& ctx, const store::NodeRow& to, bool new_table,
                      std::function<void(cluster::LinkFailure, const std::string&)> on_fail);
  // A client left: the nodes that ran its commands forget it, its remote tables are unfollowed.
  void forwarded_client_gone(const std::shared_ptr<Client>& client);
  std::shared_ptr<Table> resolve_board(const Ctx& ctx, const Command& c) const;
  // Several nodes: another node may have stored the resume token `token` since this one read
  // them at its start; if this lobby does not know it, it is read from the database (one round
  // trip on the caller's strand, after the resume back-off) and added. Alone: nothing.
  // (Accounts read theirs on the hash pool: Accounts::set_fetch.)
  void catch_up_token(std::string_view token);
  // A stored table rebuilt from its rows, or null (logged and listed by skipped_tables()) if it
  // cannot be replayed. Call with mutex_ held.
  std::shared_ptr<Table> rebuild_table(const store::TableRow& row,
                                       const std::vector<store::MoveRow>& moves,
                                       const std::vector<store::ChatRow>& chat,
                                       const std::vector<store::EventRow>& events);
  // A new table in the directory; `check` (under the directory's lock) may throw to refuse.
  std::shared_ptr<Table> add_table(std::shared_ptr<const Game> game, std::string creator,
                                   std::vector<SeatOwner> seats, ClockSettings clock,
                                   const std::function<void(const TableIndex&)>& check);

  boost::asio::io_context& io_;
  store::Store& store_;
  boost::asio::thread_pool& workers_;
  const LobbyLimits limits_;
  Accounts accounts_;
  GuestNames guests_;
  ResumeTokens tokens_;
  Presence presence_;
  Ratings ratings_;
  TableDirectory directory_;
  boost::asio::steady_timer sweep_timer_;
  Vacations vacations_;
  AnalysisGate analyses_;
  boost::asio::steady_timer correspondence_timer_;
  std::atomic<std::int64_t> digest_day_{0};  // the last UTC day (ms / kDayMs) digests went out
  std::atomic<bool> digest_busy_{false};      // a day's digests are being written
  std::atomic<TableMailer*> mailer_{nullptr};
  std::vector<store::MailRow> unsent_mail_;
  std::vector<store::MailSeenRow> seen_mail_;
  std::function<std::string(const std::string&)> address_check_;

  RemoteFeed* remote_feed_ = nullptr;
  // lobby_cluster.cpp: the feed told of a login or logout (`old_name` the client's name
  // before), of a new table's players; the names online on the other nodes.
  void feed_user_changed(const std::shared_ptr<Client>& client, const std::string& old_name);
  void feed_table_made(const std::shared_ptr<Table>& table, const std::vector<SeatOwner>& seats,
                       const std::shared_ptr<Client>& caller);
  std::vector<std::string> feed_names() const;
  // TableServices: logged in on another live node (lobby_cluster.cpp; for notifications).
  bool online_elsewhere(const std::string& user) const override;
  // Several nodes: the name of `name` (lower-case) as an account registered on another node
  // since this one started (one round trip; then held here) or a guest online on another
  // node; "" if neither, or alone.
  std::string cluster_user(const std::string& name);

  // lobby_notices.cpp: an /invite of a name this node does not know yet may be an account
  // another node registered since this one started: it is read from the database first (one
  // round trip, as a challenge's), so that the table knows it.
  void learn_invitee(const Command& c);
  // Publishes `notice` on plateau_notices (logged and dropped if it cannot be one).
  void publish_notice(const UserNotice& notice);
  NoticeBudget notice_budget_;
  RateLimitedLog notice_logs_;

  mutable std::mutex mutex_;  // skipped_
  std::vector<SkippedTable> skipped_;
  cluster::Node* node_ = nullptr;
  RemoteFollow* remote_follow_ = nullptr;
  cluster::NodeLink* link_ = nullptr;
  bool tables_here_ = false;
  struct Forwarding;  // lobby_forward.cpp
  std::shared_ptr<Forwarding> forwarding_;
};

}  // namespace plateau::server
