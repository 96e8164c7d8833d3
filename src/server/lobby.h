#pragma once
// The lobby: the one owner of the server's shared state (accounts, ratings, who is online, the
// index of tables) behind one mutex, and the entry point of every command line from every
// transport. It answers account and listing commands itself and hands table and board commands
// to the table's strand. Each client's commands run one at a time, in order.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "server/accounts.h"
#include "server/asio.h"
#include "server/client.h"
#include "server/command.h"
#include "server/glicko2.h"
#include "server/guest_names.h"
#include "server/limits.h"
#include "server/resume_tokens.h"
#include "server/table.h"
#include "server/table_quota.h"
#include "store/store.h"

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

class Lobby {
 public:
  // `workers` run the CPU players; `hashing` (a separate, small pool) the password hashes, so
  // that logins can never starve bots. `limits` as parsed from `plateau serve`'s flags.
  Lobby(boost::asio::io_context& io, store::Store& store, boost::asio::thread_pool& workers,
        boost::asio::thread_pool& hashing, const LobbyLimits& limits);

  // Reads the store and rebuilds every table (with moves, clocks, queued moves, chat), then
  // re-arms clocks and CPU players; running clocks are not charged for the time the server was
  // down (from the store's last sign of life to now). Call once before accepting connections.
  // A table that cannot be replayed is skipped (logged, and listed by skipped_tables()); its
  // rows stay in the store and its number is not reused.
  void restore();
  // The tables restore() skipped. Thread-safe.
  std::vector<SkippedTable> skipped_tables() const;
  // Removes `table` (numbered `number` in `game`) from the index if it is still the one there:
  // a new table whose first write failed never existed. Thread-safe.
  void forget_table(const std::string& game, int number, const Table* table);
  // After restore(): deletes the set-up tables of guests (nobody is online yet, and a guest name
  // never comes back) that no other user sits at, as when their guest disconnects.
  void discard_abandoned_guest_tables();
  // Stops table timers (shutdown).
  void stop();

  // Handles one command line of `client`; `done` runs once every reply is queued. Call from the
  // client's strand, one line at a time.
  void handle(const std::shared_ptr<Client>& client, std::string_view line,
              std::function<void()> done);
  void connected(const std::shared_ptr<Client>& client);
  void disconnected(const std::shared_ptr<Client>& client);

  // For tables and transports.
  boost::asio::io_context& io() { return io_; }
  store::Store& store() { return store_; }
  boost::asio::thread_pool& workers() { return workers_; }
  // Wall clock in ms since the epoch.
  static std::int64_t now_ms();
  // Open connections of `user` (case-insensitive).
  std::vector<std::shared_ptr<Client>> clients_of(const std::string& user) const;
  bool is_account(const std::string& name) const;
  // Updates both players' ratings for one game (score_a: 1, 0.5 or 0 for player a), adds the
  // rows to `batch`, and returns the page's rating lines.
  std::vector<std::string> rate_game(const std::string& game, const std::string& a,
                                     const std::string& b, double score_a, store::Batch& batch);
  std::shared_ptr<Table> find_table(const std::string& game, int number) const;
  // Keeps a game played elsewhere (a biloba 0.9.3 network game on port 8000) as a finished
  // table: `spec` is the game with its options, `players` one name per game seat, `moves` the
  // complete turns in canonical notation; an unfinished game is kept with no result and reason
  // `unfinished_reason`. Thread-safe. Returns the new table (its board number is the id users
  // see); `stored` runs once it is durable. Throws OptionError/RuleError (nothing is kept) on a
  // bad spec, a wrong number of players or an illegal move.
  std::shared_ptr<Table> import_game(const std::string& spec,
                                     const std::vector<std::string>& players,
                                     const std::vector<std::string>& moves,
                                     const std::string& unfinished_reason,
                                     std::function<void()> stored);
  std::vector<TableSummary> table_summaries() const;
  LobbyStats stats() const;

 private:
  struct Ctx;
  void dispatch(Ctx& ctx, Command& c);
  void cmd_register(Ctx& ctx, const Command& c);
  void cmd_login(Ctx& ctx, const Command& c);
  void cmd_guest(Ctx& ctx);
  void cmd_logout(Ctx& ctx);
  void cmd_resume(Ctx& ctx, const Command& c);
  // Every sweep period: expired resume tokens go, and with them the set-up tables of guests
  // left without one.
  void arm_token_sweep();
  void cmd_who(Ctx& ctx);
  void cmd_games(Ctx& ctx);
  void cmd_help(Ctx& ctx, const Command& c);
  void cmd_tables(Ctx& ctx, const Command& c);
  void cmd_standings(Ctx& ctx, const Command& c);
  void cmd_open(Ctx& ctx, const Command& c);
  void cmd_table(Ctx& ctx, const Command& c);
  void cmd_challenge(Ctx& ctx, const Command& c);
  void cmd_limit(Ctx& ctx, const Command& c);
  // The callback that ends a register/login/guest command: on the client's strand, sets the
  // identity (unless the client is gone), logs `what` ("login", ...) and answers with `text`
  // ("{}" = the name), or answers the error.
  std::function<void(std::string, std::string)> finish_login(const Ctx& ctx, bool guest,
                                                             std::string what, std::string text);
  // Takes `client` off the online list (mutex_ held); returns its name if it was a guest's last
  // connection, else "".
  std::string go_offline_locked(const std::shared_ptr<Client>& client);
  // A guest left (disconnected or logged in as someone else): its unused set-up tables go.
  void guest_left(const std::string& name);
  void to_table(Ctx& ctx, Command& c);
  void set_user(const std::shared_ptr<Client>& client, const std::string& user, bool guest);
  std::shared_ptr<Table> resolve_board(const Ctx& ctx, const Command& c) const;
  std::shared_ptr<Table> add_table_locked(std::shared_ptr<const Game> game, std::string creator,
                                          std::vector<SeatOwner> seats, ClockSettings clock);

  boost::asio::io_context& io_;
  store::Store& store_;
  boost::asio::thread_pool& workers_;
  const LobbyLimits limits_;
  Accounts accounts_;
  GuestNames guests_;
  ResumeTokens tokens_;
  boost::asio::steady_timer sweep_timer_;

  // Who is online: the name as logged in (so that nobody reads another client's `user`) and
  // that user's connections. An entry goes with its last connection.
  struct Online {
    std::string name;
    std::vector<std::weak_ptr<Client>> clients;
  };

  mutable std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, store::RatingRow> ratings_;  // (game, lower name)
  std::map<std::string, Online> online_;                                     // lower-case name
  TableIndex tables_;
  std::map<std::string, int> next_number_;  // per game
  std::int64_t next_table_id_ = 1;
  int next_guest_ = 1;
  std::size_t connections_ = 0;
  std::vector<SkippedTable> skipped_;
};

}  // namespace plateau::server
