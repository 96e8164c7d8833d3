// Over 600 lines: listings, table numbering, challenges and routing are still one service here;
// accounts and logins moved to accounts.cpp / login_throttle.cpp, and issue 13 splits the rest.
#include "server/lobby.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>

#include "ai/bot.h"
#include "core/error.h"
#include "core/registry.h"
#include "core/text.h"
#include "server/password.h"
#include "server/table_access.h"

namespace plateau::server {

using nlohmann::json;

namespace {

// Guest numbers reserved in the store per write (guest_names.h).
constexpr std::int64_t kGuestBlock = 64;

// Removes `client` (and connections already gone) from `clients`.
void drop_client(std::vector<std::weak_ptr<Client>>& clients,
                 const std::shared_ptr<Client>& client) {
  clients.erase(std::remove_if(clients.begin(), clients.end(),
                               [&](const auto& w) {
                                 auto c = w.lock();
                                 return !c || c == client;
                               }),
                clients.end());
}

Event list_event(const std::string& what, json items, std::vector<std::string> lines) {
  return Event{
      "list", {{"what", what}, {"items", std::move(items)}, {"lines", std::move(lines)}}, {}};
}

}  // namespace

// One command in flight: who sent it, how to answer, and what to run when it is done.
struct Lobby::Ctx {
  std::shared_ptr<Client> client;
  std::function<void()> done;
  bool deferred = false;  // `done` is called later (a table or a worker finishes the command)
  void reply(const Event& e) { client->send(e, true); }
  Caller caller() const { return Caller{client->user, client->guest, client}; }
};

Lobby::Lobby(boost::asio::io_context& io, store::Store& store, boost::asio::thread_pool& workers,
             boost::asio::thread_pool& hashing, const LobbyLimits& limits)
    : io_(io),
      store_(store),
      workers_(workers),
      limits_(limits),
      accounts_(store, hashing, limits),
      guests_(store, kGuestBlock),
      tokens_(store, limits),
      sweep_timer_(io) {}

std::int64_t Lobby::now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void Lobby::restore() {
  store::Snapshot snap = store_.load();
  // The clocks stood still while nobody could move: from the store's last sign of life to now.
  const std::int64_t downtime_ms =
      snap.alive_ms > 0 ? std::max<std::int64_t>(0, now_ms() - snap.alive_ms) : 0;
  std::vector<std::shared_ptr<Table>> restored;
  {
    std::lock_guard lock(mutex_);
    accounts_.restore(snap.accounts);
    for (auto& r : snap.ratings) ratings_[{r.game, to_lower(r.player)}] = r;
    static const std::vector<store::MoveRow> kNoMoves;
    static const std::vector<store::ChatRow> kNoChat;
    for (const auto& row : snap.tables) {
      // Whatever happens to this table, its number and id stay taken.
      next_number_[row.game] = std::max(next_number_[row.game], row.number + 1);
      next_table_id_ = std::max(next_table_id_, row.id + 1);
      auto mit = snap.moves.find(row.id);
      auto cit = snap.chat.find(row.id);
      std::shared_ptr<Table> table;
      try {
        table =
            std::make_shared<Table>(*this, row, mit == snap.moves.end() ? kNoMoves : mit->second,
                                    cit == snap.chat.end() ? kNoChat : cit->second);
      } catch (const std::exception& e) {
        // One bad table must not keep every other one from being played: leave it out, rows and
        // all, for someone to look at.
        spdlog::error("store: table {} {} (id {}) skipped: {}", row.game, row.number, row.id,
                      e.what());
        skipped_.push_back({row.game, row.number, row.id, e.what()});
        continue;
      }
      tables_[{row.game, row.number}] = table;
      for (const auto& s : table->summary().seats) {
        if (s.kind == "user" && starts_with(to_lower(s.name), "guest")) {
          try {
            next_guest_ = std::max(next_guest_, std::stoi(s.name.substr(5)) + 1);
          } catch (...) {
          }
        }
      }
      restored.push_back(table);
    }
  }
  guests_.restore(snap.counters, next_guest_ - 1);
  tokens_.restore(snap.tokens, now_ms());
  arm_token_sweep();
  if (downtime_ms > 0) spdlog::info("store: the server was down for {} ms", downtime_ms);
  for (auto& t : restored) t->resume(downtime_ms);
  spdlog::info(
      "store: {} accounts, {} tables, {} moves restored, {} tables skipped", snap.accounts.size(),
      restored.size(),
      [&] {
        std::size_t n = 0;
        for (const auto& [id, m] : snap.moves) n += m.size();
        return n;
      }(),
      skipped_.size());
}

std::vector<SkippedTable> Lobby::skipped_tables() const {
  std::lock_guard lock(mutex_);
  return skipped_;
}

void Lobby::forget_table(const std::string& game, int number, const Table* table) {
  std::lock_guard lock(mutex_);
  auto it = tables_.find({game, number});
  if (it != tables_.end() && it->second.get() == table) tables_.erase(it);
}

void Lobby::arm_token_sweep() {
  // Often enough that a guest's tables go within a quarter of the guest token's lifetime.
  const auto period = std::clamp<std::chrono::milliseconds>(
      std::chrono::duration_cast<std::chrono::milliseconds>(limits_.guest_token_ttl) / 4,
      std::chrono::milliseconds(200), std::chrono::milliseconds(60000));
  sweep_timer_.expires_after(period);
  sweep_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;
    const auto guests = tokens_.sweep(now_ms(), [this](const std::string& user) {
      std::lock_guard lock(mutex_);
      return online_.count(to_lower(user)) > 0;
    });
    for (const auto& g : guests) guest_left(g);
    arm_token_sweep();
  });
}

void Lobby::stop() {
  sweep_timer_.cancel();
  std::lock_guard lock(mutex_);
  for (auto& [key, t] : tables_) t->stop();
}

void Lobby::connected(const std::shared_ptr<Client>& client) {
  std::lock_guard lock(mutex_);
  ++connections_;
  (void)client;
}

void Lobby::disconnected(const std::shared_ptr<Client>& client) {
  {
    std::lock_guard lock(mutex_);
    --connections_;
  }
  // On the client's strand, like every identity change: a login finishing later sees `gone`
  // and leaves the online list alone. (`user` stays, for the log line of the disconnection.)
  client->gone = true;
  // A token stays valid for its lifetime after the last connection that used it.
  if (!client->token_selector.empty()) tokens_.touch(client->token_selector, now_ms());
  std::string guest_gone;
  {
    std::lock_guard lock(mutex_);
    guest_gone = go_offline_locked(client);
  }
  if (!guest_gone.empty()) guest_left(guest_gone);
  for (const auto& table : client->watched_tables()) table->watcher_closed(client);
}

std::vector<std::shared_ptr<Client>> Lobby::clients_of(const std::string& user) const {
  std::vector<std::shared_ptr<Client>> out;
  std::lock_guard lock(mutex_);
  auto it = online_.find(to_lower(user));
  if (it == online_.end()) return out;
  for (const auto& w : it->second.clients) {
    if (auto c = w.lock()) out.push_back(c);
  }
  return out;
}

bool Lobby::is_account(const std::string& name) const { return accounts_.exists(name); }

std::shared_ptr<Table> Lobby::find_table(const std::string& game, int number) const {
  std::lock_guard lock(mutex_);
  auto it = tables_.find({game, number});
  return it == tables_.end() ? nullptr : it->second;
}

std::vector<TableSummary> Lobby::table_summaries() const {
  std::vector<std::shared_ptr<Table>> tables;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [k, t] : tables_) tables.push_back(t);
  }
  std::vector<TableSummary> out;
  out.reserve(tables.size());
  for (const auto& t : tables) out.push_back(t->summary());
  return out;
}

LobbyStats Lobby::stats() const {
  std::lock_guard lock(mutex_);
  return {connections_, tables_.size(), accounts_.size()};  // lock order: lobby, then accounts
}

std::vector<std::string> Lobby::rate_game(const std::string& game, const std::string& a,
                                          const std::string& b, double score_a,
                                          store::Batch& batch) {
  std::lock_guard lock(mutex_);
  auto get = [&](const std::string& p) -> store::RatingRow& {
    auto key = std::make_pair(game, to_lower(p));
    auto it = ratings_.find(key);
    if (it == ratings_.end()) {
      store::RatingRow row;
      row.game = game;
      row.player = p;
      it = ratings_.emplace(key, row).first;
    }
    return it->second;
  };
  // If the batch fails, the cache goes back to what is stored (a row made just now goes).
  std::vector<std::pair<store::RatingRow, bool>> before;  // (row, it was there)
  for (const auto* p : {&a, &b}) {
    auto it = ratings_.find({game, to_lower(*p)});
    before.emplace_back(it != ratings_.end() ? it->second : store::RatingRow{},
                        it != ratings_.end());
  }
  batch.on_rollback([this, game, a, b, before] {
    std::lock_guard lock(mutex_);
    const std::string names[] = {a, b};
    for (int i = 0; i < 2; ++i) {
      const auto key = std::make_pair(game, to_lower(names[i]));
      if (before[i].second) {
        ratings_[key] = before[i].first;
      } else {
        ratings_.erase(key);
      }
    }
  });
  store::RatingRow& ra = get(a);
  store::RatingRow& rb = get(b);
  const Glicko ga{ra.rating, ra.deviation, ra.volatility};
  const Glicko gb{rb.rating, rb.deviation, rb.volatility};
  const Glicko na = glicko2_update(ga, gb, score_a);
  const Glicko nb = glicko2_update(gb, ga, 1.0 - score_a);
  std::vector<std::string> lines;
  auto line = [](const std::string& p, double from, double to, double rd) {
    const long f = std::lround(from);
    const long t = std::lround(to);
    return p + "'s rating went " + (t >= f ? "up" : "down") + " from " + std::to_string(f) +
           " to " + std::to_string(t) + "." + (rd > 110 ? " (provisional)" : "");
  };
  lines.push_back(line(a, ra.rating, na.rating, na.deviation));
  lines.push_back(line(b, rb.rating, nb.rating, nb.deviation));
  ra.rating = na.rating;
  ra.deviation = na.deviation;
  ra.volatility = na.volatility;
  ++ra.games;
  rb.rating = nb.rating;
  rb.deviation = nb.deviation;
  rb.volatility = nb.volatility;
  ++rb.games;
  batch.put_rating(ra);
  batch.put_rating(rb);
  return lines;
}

// ---------------------------------------------------------------------------------------------

void Lobby::handle(const std::shared_ptr<Client>& client, std::string_view line,
                   std::function<void()> done) {
  Ctx ctx{client, std::move(done)};
  try {
    std::optional<Command> c = parse_command(line);
    if (c) dispatch(ctx, *c);
  } catch (const CommandError& e) {
    ctx.reply(error_event(e.what()));
  } catch (const OptionError& e) {
    ctx.reply(error_event(e.what()));
  } catch (const std::exception& e) {
    spdlog::error("{}: internal error on a command: {}", client->describe(), e.what());
    ctx.reply(error_event(std::string("internal error: ") + e.what()));
  }
  if (!ctx.deferred && ctx.done) ctx.done();
}

void Lobby::dispatch(Ctx& ctx, Command& c) {
  if (!c.game.empty()) {
    std::vector<std::string> names;
    bool known = false;
    for (const GameInfo* g : registered_games()) {
      names.push_back(g->name);
      known = known || g->name == c.game;
    }
    if (!known) {
      throw CommandError("unknown game '" + c.game.substr(0, 30) +
                         "'; games are: " + join(names, ", "));
    }
  }
  switch (c.verb) {
    case Verb::kRegister:
      return cmd_register(ctx, c);
    case Verb::kLogin:
      return cmd_login(ctx, c);
    case Verb::kGuest:
      return cmd_guest(ctx);
    case Verb::kLogout:
      return cmd_logout(ctx);
    case Verb::kResume:
      return cmd_resume(ctx, c);
    case Verb::kQuit:
      ctx.reply(Event{"bye", {{"text", "Goodbye."}}, {}});
      ctx.client->close();
      return;
    case Verb::kPing:
      return ctx.reply(ok_event("pong"));
    case Verb::kWho:
      return cmd_who(ctx);
    case Verb::kGames:
      if (!c.game.empty()) return cmd_tables(ctx, c);
      return cmd_games(ctx);
    case Verb::kHelp:
      return cmd_help(ctx, c);
    case Verb::kTables:
      return cmd_tables(ctx, c);
    case Verb::kStandings:
      return cmd_standings(ctx, c);
    case Verb::kOpen:
      return cmd_open(ctx, c);
    case Verb::kTable:
      return cmd_table(ctx, c);
    case Verb::kChallenge:
      return cmd_challenge(ctx, c);
    case Verb::kLimit:
      return cmd_limit(ctx, c);
    default:
      return to_table(ctx, c);
  }
}

void Lobby::set_user(const std::shared_ptr<Client>& client, const std::string& user, bool guest) {
  std::string guest_gone;  // a guest whose last connection this was
  {
    std::lock_guard lock(mutex_);
    guest_gone = go_offline_locked(client);
    client->user = user;
    client->guest = guest;
    if (!user.empty()) {
      Online& entry = online_[to_lower(user)];
      entry.name = user;
      entry.clients.push_back(client);
    }
  }
  if (!guest_gone.empty()) guest_left(guest_gone);
}

std::string Lobby::go_offline_locked(const std::shared_ptr<Client>& client) {
  if (client->user.empty()) return "";
  auto it = online_.find(to_lower(client->user));
  if (it == online_.end()) return "";
  drop_client(it->second.clients, client);
  if (!it->second.clients.empty()) return "";
  online_.erase(it);
  return client->guest ? client->user : "";
}

std::function<void(std::string, std::string)> Lobby::finish_login(const Ctx& ctx, bool guest,
                                                                  std::string what,
                                                                  std::string text) {
  return [this, client = ctx.client, done = ctx.done, guest, what = std::move(what),
          text = std::move(text)](std::string user, std::string error) {
    if (!error.empty()) {
      return client->on_strand([client, done, error] {
        client->send(error_event(error), true);
        if (done) done();
      });
    }
    // The answer carries a resume token, handed out once it is durable.
    tokens_.issue(user, guest, now_ms(), [this, client, done, guest, what, text, user](
                                             std::string token, std::string selector) {
      client->on_strand([this, client, done, guest, what, text, user, token, selector] {
        if (client->gone) {
          tokens_.revoke(selector);  // nobody received it
        } else {
          set_user(client, user, guest);
          tokens_.revoke(client->token_selector);  // the connection's earlier identity
          client->token_selector = selector;
          spdlog::info("{}: {} {}", client->describe(), what, user);
          if (token.empty()) spdlog::error("{}: no resume token (store failed)", user);
          std::string shown = text;
          shown.replace(shown.find("{}"), 2, user);
          json data{{"user", user}, {"guest", guest}, {"text", shown}};
          if (!token.empty()) data["token"] = token;
          client->send(Event{"login", std::move(data), {}}, true);
        }
        if (done) done();
      });
    });
  };
}

void Lobby::cmd_register(Ctx& ctx, const Command& c) {
  // Throws CommandError at once for a bad name or password; hashes on the hash pool.
  accounts_.register_account(
      c.args[0], c.args[1],
      finish_login(ctx, false, "registered", "Welcome, {}. Your account is created."));
  ctx.deferred = true;
}

void Lobby::cmd_login(Ctx& ctx, const Command& c) {
  ctx.deferred = true;
  accounts_.login(c.args[0], c.args[1], ctx.client->address(),
                  finish_login(ctx, false, "login", "Hello, {}."));
}

void Lobby::cmd_guest(Ctx& ctx) {
  ctx.deferred = true;
  guests_.issue(finish_login(ctx, true, "guest", "Hello, {} (guest: unrated games only)."));
}

void Lobby::cmd_resume(Ctx& ctx, const Command& c) {
  // Guessing tokens costs like guessing passwords: the same back-off per address.
  using Clock = LoginThrottle::Clock;
  const std::string address = ctx.client->address();
  const std::string key = "#resume@" + address;
  if (auto refusal = accounts_.throttle().begin(key, address, Clock::now())) {
    refusal->by_account = false;
    throw CommandError(Accounts::refusal_text(key, *refusal));
  }
  auto id = tokens_.resume(c.args[0], now_ms());
  accounts_.throttle().end(
      key, address, id ? LoginThrottle::Outcome::kSuccess : LoginThrottle::Outcome::kFailure,
      Clock::now());
  if (!id) throw CommandError("unknown, expired or revoked resume token; log in again");
  if (id->selector != ctx.client->token_selector) tokens_.revoke(ctx.client->token_selector);
  set_user(ctx.client, id->user, id->guest);
  ctx.client->token_selector = id->selector;
  spdlog::info("{}: resume {}", ctx.client->describe(), id->user);
  ctx.reply(Event{"login",
                  {{"user", id->user},
                   {"guest", id->guest},
                   {"text", "Welcome back, " + id->user +
                                (id->guest ? " (guest: unrated games only)." : ".")},
                   {"token", std::string(c.args[0])}},
                  {}});
}

void Lobby::guest_left(const std::string& name) {
  // A guest who may still come back with a resume token keeps its tables until it expires.
  if (tokens_.holds_valid(name, now_ms())) return;
  std::vector<std::shared_ptr<Table>> mine;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [key, t] : tables_) {
      if (same_user(t->creator(), name) && t->summary().status == TableStatus::kSetup) {
        mine.push_back(t);
      }
    }
  }
  for (const auto& t : mine) {
    t->discard_if_unused(name, [this, t](bool discarded) {
      if (!discarded) return;
      std::lock_guard lock(mutex_);
      auto it = tables_.find({t->game_name(), t->number()});
      if (it != tables_.end() && it->second == t) tables_.erase(it);
    });
  }
}

void Lobby::discard_abandoned_guest_tables() {
  std::set<std::string> guests;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [key, t] : tables_) {
      const std::string lower = to_lower(t->creator());
      if (starts_with(lower, "guest") && !online_.count(lower)) guests.insert(t->creator());
    }
  }
  for (const auto& g : guests) guest_left(g);
}

void Lobby::cmd_logout(Ctx& ctx) {
  if (ctx.client->user.empty()) throw CommandError("you are not logged in");
  tokens_.revoke(ctx.client->token_selector);
  ctx.client->token_selector.clear();
  set_user(ctx.client, "", false);
  ctx.client->current.reset();
  ctx.reply(ok_event("Logged out."));
}

void Lobby::cmd_limit(Ctx& ctx, const Command& c) {
  if (ctx.client->user.empty()) throw CommandError("log in first");
  if (ctx.client->guest) {
    throw CommandError("guests cannot limit challenges; register an account");
  }
  auto describe = [](int limit) -> std::string {
    if (limit == store::kAcceptAllChallenges) return "You accept all challenges.";
    if (limit == 0) return "You accept no challenges.";
    return "You accept at most " + count_of(limit, "open board") + " started by others.";
  };
  const std::string user = ctx.client->user;
  if (c.args.empty()) {
    ctx.reply(
        ok_event(describe(accounts_.challenge_limit(user).value_or(store::kAcceptAllChallenges))));
    return;
  }
  const std::string word = to_lower(c.args[0]);
  int limit = 0;
  if (word == "accept") {
    limit = store::kAcceptAllChallenges;
  } else if (word == "reject") {
    limit = 0;
  } else {
    limit = std::stoi(word);  // the parser let through digits only (at most 9)
    if (limit > kMaxChallengeLimit) {
      throw CommandError("limit N: N is at most " + std::to_string(kMaxChallengeLimit) +
                         "; limit accept takes every challenge");
    }
  }
  ctx.deferred = true;
  accounts_.set_challenge_limit(
      user, limit,
      [client = ctx.client, done = ctx.done, text = describe(limit)](std::string error) {
        client->send(error.empty() ? ok_event(text) : error_event(error), true);
        if (done) done();
      });
}

void Lobby::cmd_who(Ctx& ctx) {
  std::vector<std::string> names;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [key, entry] : online_) {
      for (const auto& w : entry.clients) {
        if (!w.expired()) {
          names.push_back(entry.name);
          break;
        }
      }
    }
  }
  std::sort(names.begin(), names.end());
  std::vector<std::string> lines{std::to_string(names.size()) + " online: " + join(names, " ")};
  ctx.reply(list_event("who", names, lines));
}

void Lobby::cmd_games(Ctx& ctx) {
  json items = json::array();
  std::vector<std::string> lines;
  for (const GameInfo* g : registered_games()) {
    items.push_back({{"name", g->name},
                     {"title", g->title},
                     {"summary", g->summary},
                     {"min_seats", g->min_seats},
                     {"max_seats", g->max_seats}});
    std::string seats = g->min_seats == g->max_seats
                            ? std::to_string(g->min_seats)
                            : std::to_string(g->min_seats) + "-" + std::to_string(g->max_seats);
    lines.push_back(g->name + " (" + seats + " players): " + g->summary);
  }
  ctx.reply(list_event("games", items, lines));
}

void Lobby::cmd_help(Ctx& ctx, const Command& c) {
  std::string topic = !c.args.empty() ? to_lower(c.args[0]) : c.game;
  if (!topic.empty()) {
    for (const GameInfo* g : registered_games()) {
      if (g->name != topic) continue;
      std::vector<std::string> lines{g->title + ": " + g->summary,
                                     "Seats: " + std::to_string(g->min_seats) + "-" +
                                         std::to_string(g->max_seats) + ". Options:"};
      json opts = json::array();
      for (const auto& o : g->options) {
        lines.push_back("  " + o.name + "=" + o.accepted + " (default " + o.default_value +
                        "): " + o.help);
        opts.push_back({{"name", o.name},
                        {"default", o.default_value},
                        {"accepted", o.accepted},
                        {"help", o.help}});
      }
      for (const auto& p : g->presets) lines.push_back("  --" + p.name + ": " + p.help);
      lines.push_back(
          "Table options: clock=none|move:SECONDS|fischer:SECONDS+INC, invisible, "
          "drawseat, host.");
      ctx.reply(list_event("help", {{"game", g->name}, {"options", opts}}, lines));
      return;
    }
    if (!c.game.empty() || !c.args.empty()) {
      bool command = false;
      for (const auto& [usage, text] : command_help()) {
        if (to_lower(usage).find(topic) != std::string::npos) command = true;
      }
      if (!command) throw CommandError("no help for '" + topic.substr(0, 30) + "'; try help");
    }
  }
  std::vector<std::string> lines{"Commands (a leading '/' is optional):"};
  json items = json::array();
  for (const auto& [usage, text] : command_help()) {
    if (!topic.empty() && to_lower(usage).find(topic) == std::string::npos) continue;
    std::string u = usage;
    u.resize(std::max<std::size_t>(u.size(), 46), ' ');
    lines.push_back("  " + u + " " + text);
    items.push_back({{"usage", usage}, {"help", text}});
  }
  ctx.reply(list_event("help", items, lines));
}

void Lobby::cmd_tables(Ctx& ctx, const Command& c) {
  json items = json::array();
  std::vector<std::string> lines;
  for (const auto& s : table_summaries()) {
    if (!c.game.empty() && s.game != c.game) continue;
    if (!may_reach(s.access, ctx.client->user)) continue;
    std::vector<std::string> seats;
    json jseats = json::array();
    for (const auto& o : s.seats) {
      std::string n = o.kind.empty() ? "-" : (o.kind == "cpu" ? "cpu:" + o.name : o.name);
      seats.push_back(n);
      jseats.push_back(n);
    }
    items.push_back({{"game", s.game},
                     {"board", s.number},
                     {"status", status_name(s.status)},
                     {"seats", jseats},
                     {"ply", s.ply},
                     {"options", s.options},
                     {"kind", s.board ? "board" : "table"}});
    lines.push_back(s.game + " " + std::to_string(s.number) + " " + status_name(s.status) +
                    " ply " + std::to_string(s.ply) + ": " + join(seats, ", ") +
                    (s.options.empty() ? "" : " (" + s.options + ")"));
  }
  if (lines.empty()) lines.push_back("No tables.");
  ctx.reply(list_event("tables", items, lines));
}

void Lobby::cmd_standings(Ctx& ctx, const Command& c) {
  make_game(c.game);  // throws OptionError listing the games for a bad name
  std::vector<store::RatingRow> rows;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [key, r] : ratings_) {
      if (key.first == c.game) rows.push_back(r);
    }
  }
  std::sort(rows.begin(), rows.end(),
            [](const auto& a, const auto& b) { return a.rating > b.rating; });
  json items = json::array();
  std::vector<std::string> lines{"Standings of " + c.game + ":"};
  int rank = 0;
  for (const auto& r : rows) {
    items.push_back({{"player", r.player},
                     {"rating", std::lround(r.rating)},
                     {"deviation", std::lround(r.deviation)},
                     {"games", r.games}});
    char buf[128];
    std::snprintf(buf, sizeof buf, "%3d. %-20s %5ld  RD %3ld  games %d", ++rank, r.player.c_str(),
                  std::lround(r.rating), std::lround(r.deviation), r.games);
    lines.push_back(buf);
  }
  if (rows.empty()) lines.push_back("No rated games yet.");
  ctx.reply(list_event("standings", items, lines));
}

std::shared_ptr<Table> Lobby::add_table_locked(std::shared_ptr<const Game> game,
                                               std::string creator, std::vector<SeatOwner> seats,
                                               ClockSettings clock) {
  int& next = next_number_[game->name()];
  if (next < 101) next = 101;  // pbmserv: board numbers per game type start at 101
  const int number = next++;
  const std::int64_t id = next_table_id_++;
  auto table = std::make_shared<Table>(*this, id, std::move(game), number, std::move(creator),
                                       std::move(seats), clock, now_ms());
  tables_[{table->game_name(), number}] = table;
  return table;
}

std::shared_ptr<Table> Lobby::import_game(const std::string& spec,
                                          const std::vector<std::string>& players,
                                          const std::vector<std::string>& moves,
                                          const std::string& unfinished_reason,
                                          std::function<void()> stored) {
  auto game = make_game(spec);
  if (static_cast<int>(players.size()) != game->num_seats()) {
    throw RuleError(game->spec() + " needs " + std::to_string(game->num_seats()) +
                    " players, got " + std::to_string(players.size()));
  }
  std::vector<SeatOwner> seats;
  for (const auto& name : players) seats.push_back({"legacy", name});
  std::shared_ptr<Table> table;
  {
    std::lock_guard lock(mutex_);
    table = add_table_locked(game, "biloba-net", std::move(seats), ClockSettings{});
  }
  try {
    table->import_finished(moves, unfinished_reason, std::move(stored));
  } catch (...) {
    std::lock_guard lock(mutex_);
    tables_.erase({table->game_name(), table->number()});
    throw;
  }
  return table;
}

namespace {

// The -NAME=VALUE parameters of `open` and `challenge`: the game's options as "name=value"
// items and the table's clock (`-clock=...`, docs/PROTOCOL.md). Throws CommandError for a bad
// clock.
std::pair<std::vector<std::string>, ClockSettings> game_options_and_clock(const Command& c) {
  std::vector<std::string> opts;
  ClockSettings clock;
  for (const auto& [k, v] : c.params) {
    if (k != "clock") {
      opts.push_back(k + "=" + v);
      continue;
    }
    try {
      clock = parse_clock(v);
    } catch (const std::invalid_argument& e) {
      throw CommandError(e.what());
    }
  }
  return {opts, clock};
}

}  // namespace

void Lobby::cmd_open(Ctx& ctx, const Command& c) {
  if (ctx.client->user.empty()) throw CommandError("log in first");
  auto [opts, clock] = game_options_and_clock(c);
  auto game = make_game(c.game, join(opts, ","));
  std::shared_ptr<Table> table;
  {
    std::lock_guard lock(mutex_);
    check_table_quota(tables_, ctx.client->user, ctx.client->guest, limits_);
    table = add_table_locked(game, ctx.client->user, {}, clock);
  }
  ctx.client->current = table;
  ctx.deferred = true;
  table->create(ctx.caller(), ctx.done);
}

void Lobby::cmd_table(Ctx& ctx, const Command& c) {
  auto table = resolve_board(ctx, c);
  ctx.client->current = table;
  ctx.deferred = true;
  table->handle(ctx.caller(), c, ctx.done);
}

void Lobby::cmd_challenge(Ctx& ctx, const Command& c) {
  if (ctx.client->user.empty()) throw CommandError("log in first");
  if (c.game.empty()) {
    throw CommandError("say which game: GAME challenge USER1 USER2 (games: see 'games')");
  }
  auto [opts, clock] = game_options_and_clock(c);
  for (const auto& f : c.flags) opts.push_back(f);  // --winningways: a preset
  auto game = make_game(c.game, join(opts, ","));
  if (static_cast<int>(c.args.size()) != game->num_seats()) {
    throw CommandError(game->spec() + " needs " + std::to_string(game->num_seats()) +
                       " players, got " + std::to_string(c.args.size()));
  }
  std::vector<SeatOwner> seats;
  bool me = false;
  for (const std::string& who : c.args) {
    const std::string lower = to_lower(who);
    if (starts_with(lower, "cpu:")) {
      const std::string level = lower.substr(4);
      if (!is_bot_name(level)) {
        make_bot(level, 0);  // throws OptionError listing the levels
        throw CommandError("unknown CPU level '" + level + "'");
      }
      seats.push_back({"cpu", level});
      continue;
    }
    std::string canonical = accounts_.canonical(lower);
    if (canonical.empty()) {
      std::lock_guard lock(mutex_);
      auto it = online_.find(lower);
      if (it != online_.end()) canonical = it->second.name;  // a guest
    }
    if (canonical.empty()) throw CommandError("no user named '" + who.substr(0, 30) + "'");
    for (const auto& s : seats) {
      if (s.kind == "user" && to_lower(s.name) == lower) {
        throw CommandError(canonical + " is named twice");
      }
    }
    if (lower == to_lower(ctx.client->user)) me = true;
    seats.push_back({"user", canonical});
  }
  if (!me) throw CommandError("you must be one of the players of your challenge");
  std::shared_ptr<Table> table;
  {
    // The checks and the new table in one step: two challenges at once cannot both slip in.
    std::lock_guard lock(mutex_);
    check_table_quota(tables_, ctx.client->user, ctx.client->guest, limits_);
    for (const auto& s : seats) {
      if (s.kind != "user" || to_lower(s.name) == to_lower(ctx.client->user)) continue;
      if (auto limit = accounts_.challenge_limit(s.name)) {
        check_challenge_accepted(tables_, s.name, *limit);
      }
    }
    table = add_table_locked(game, ctx.client->user, seats, clock);
  }
  ctx.client->current = table;
  ctx.deferred = true;
  table->create(ctx.caller(), ctx.done);
}

std::shared_ptr<Table> Lobby::resolve_board(const Ctx& ctx, const Command& c) const {
  // A table the caller may not reach is not there (table_access.h): same errors, and it does
  // not count when a bare number names boards of several games.
  const std::string& user = ctx.client->user;
  auto reachable = [&](const std::shared_ptr<Table>& t) {
    return may_reach(t->summary().access, user);
  };
  if (!c.board) {
    auto t = ctx.client->current.lock();
    if (!t || !reachable(t)) throw CommandError(unknown_table_error(c));
    if (!c.game.empty() && t->game_name() != c.game) {
      throw CommandError("your table is " + t->game_name() + " " + std::to_string(t->number()) +
                         ", not " + c.game);
    }
    return t;
  }
  std::lock_guard lock(mutex_);
  if (!c.game.empty()) {
    auto it = tables_.find({c.game, *c.board});
    if (it == tables_.end() || !reachable(it->second)) throw CommandError(unknown_table_error(c));
    return it->second;
  }
  std::shared_ptr<Table> found;
  std::vector<std::string> games;
  for (const auto& [key, t] : tables_) {
    if (key.second == *c.board && reachable(t)) {
      found = t;
      games.push_back(key.first);
    }
  }
  if (games.empty()) throw CommandError(unknown_table_error(c));
  if (games.size() > 1) {
    throw CommandError("board " + std::to_string(*c.board) + " exists for " + join(games, " and ") +
                       "; say which, e.g. " + games[0] + " " + std::string(verb_name(c.verb)) +
                       " " + std::to_string(*c.board));
  }
  return found;
}

void Lobby::to_table(Ctx& ctx, Command& c) {
  auto table = resolve_board(ctx, c);
  if (c.verb == Verb::kWatch) ctx.client->current = table;
  ctx.deferred = true;
  table->handle(ctx.caller(), c, ctx.done);
}

}  // namespace plateau::server
