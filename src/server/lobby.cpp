// The Lobby's start-up and routing, and the commands that make or reach tables (open, table,
// challenge, board commands). Accounts: lobby_login.cpp; listings: lobby_lists.cpp.
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
#include "server/lobby_ctx.h"
#include "server/mail_command.h"
#include "server/password.h"
#include "server/table_access.h"

namespace plateau::server {

using nlohmann::json;

namespace {

// Guest numbers reserved in the store per write (guest_names.h).
constexpr std::int64_t kGuestBlock = 64;

}  // namespace

Lobby::Lobby(boost::asio::io_context& io, store::Store& store, boost::asio::thread_pool& workers,
             boost::asio::thread_pool& hashing, const LobbyLimits& limits)
    : io_(io),
      store_(store),
      workers_(workers),
      limits_(limits),
      accounts_(store, hashing, limits),
      guests_(store, kGuestBlock),
      tokens_(store, limits),
      sweep_timer_(io),
      vacations_(store),
      analyses_({limits.analysis_burst, limits.analysis_refill_ms, limits.max_analyses}),
      correspondence_timer_(io) {}

void Lobby::restore() {
  if (!limits_.test_clock_offset_file.empty()) {  // tests only (wall_clock.h)
    set_wall_clock_offset_ms(read_clock_offset_file(limits_.test_clock_offset_file).value_or(0));
  }
  store::Snapshot snap = store_.load(limits_.events_kept);
  // The clocks stood still while nobody could move: from the store's last sign of life to now.
  const std::int64_t downtime_ms =
      snap.alive_ms > 0 ? std::max<std::int64_t>(0, system_clock_ms() - snap.alive_ms) : 0;
  std::vector<std::shared_ptr<Table>> restored;
  int next_guest = 1;
  std::size_t skipped = 0;
  accounts_.restore(snap.accounts);
  unsent_mail_ = std::move(snap.outbox);
  seen_mail_ = std::move(snap.mail_seen);
  ratings_.restore(snap.ratings);
  {
    std::lock_guard lock(mutex_);
    static const std::vector<store::MoveRow> kNoMoves;
    static const std::vector<store::ChatRow> kNoChat;
    static const std::vector<store::EventRow> kNoEvents;
    for (const auto& row : snap.tables) {
      // Whatever happens to this table, its number and id stay taken.
      directory_.reserve(row.game, row.number, row.id);
      // Several nodes: another node serves it (the node claimed its own before this read).
      if (node_ && row.owner != node_id()) continue;
      auto mit = snap.moves.find(row.id);
      auto cit = snap.chat.find(row.id);
      std::shared_ptr<Table> table =
          rebuild_table(row, mit == snap.moves.end() ? kNoMoves : mit->second,
                        cit == snap.chat.end() ? kNoChat : cit->second,
                        snap.events.count(row.id) ? snap.events[row.id] : kNoEvents);
      if (!table) continue;
      directory_.insert(table);
      for (const auto& s : table->summary().seats) {
        if (s.kind == SeatKind::kUser && starts_with(to_lower(s.name), "guest")) {
          try {
            next_guest = std::max(next_guest, std::stoi(s.name.substr(5)) + 1);
          } catch (...) {
          }
        }
      }
      restored.push_back(table);
    }
    skipped = skipped_.size();
  }
  guests_.restore(snap.counters, next_guest - 1);
  tokens_.restore(snap.tokens, now_ms());
  arm_token_sweep();
  vacations_.restore(snap.vacations);
  if (auto it = snap.counters.find("digest_day"); it != snap.counters.end()) {
    digest_day_ = it->second;
  } else {
    digest_day_ = now_ms() / kDayMs;  // a new server: the first digests go out tomorrow
  }
  arm_correspondence_tick();
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
      skipped);
}

std::shared_ptr<Table> Lobby::rebuild_table(const store::TableRow& row,
                                            const std::vector<store::MoveRow>& moves,
                                            const std::vector<store::ChatRow>& chat,
                                            const std::vector<store::EventRow>& events) {
  try {
    return std::make_shared<Table>(*this, row, moves, chat, events);
  } catch (const std::exception& e) {
    // One bad table must not keep every other one from being played: leave it out, rows and
    // all, for someone to look at.
    spdlog::error("store: table {} {} (id {}) skipped: {}", row.game, row.number, row.id,
                  e.what());
    skipped_.push_back({row.game, row.number, row.id, e.what()});
    return nullptr;
  }
}

std::vector<SkippedTable> Lobby::skipped_tables() const {
  std::lock_guard lock(mutex_);
  return skipped_;
}

void Lobby::stop() {
  sweep_timer_.cancel();
  correspondence_timer_.cancel();
  for (const auto& t : directory_.all()) t->stop();
}

void Lobby::connected(const std::shared_ptr<Client>&) { presence_.connected(); }

void Lobby::disconnected(const std::shared_ptr<Client>& client) {
  presence_.disconnected();
  // On the client's strand, like every identity change: a login finishing later sees `gone`
  // and leaves the online list alone. (`user` stays, for the log line of the disconnection.)
  client->gone = true;
  // A token stays valid for its lifetime after the last connection that used it.
  if (!client->token_selector.empty()) tokens_.touch(client->token_selector, now_ms());
  const std::string guest_gone = presence_.go_offline(client);
  if (remote_feed_) feed_user_changed(client, client->user);
  if (!guest_gone.empty()) guest_left(guest_gone);
  for (const auto& table : client->watched_tables()) table->watcher_closed(client);
  forwarded_client_gone(client);
}

std::vector<TableSummary> Lobby::table_summaries() const {
  const std::vector<std::shared_ptr<Table>> tables = directory_.all();
  std::vector<TableSummary> out;
  out.reserve(tables.size());
  for (const auto& t : tables) out.push_back(t->summary());
  return out;
}

LobbyStats Lobby::stats() const {
  return {presence_.connections(), directory_.size(), accounts_.size()};
}

void Lobby::handle(const std::shared_ptr<Client>& client, std::string_view line,
                   std::function<void()> done, const std::string& comment) {
  run_line(client, line, std::move(done), comment, false);
}

void Lobby::run_line(const std::shared_ptr<Client>& client, std::string_view line,
                     std::function<void()> done, const std::string& comment, bool local_only) {
  Ctx ctx{client, std::move(done), false, line, comment, local_only};
  try {
    std::optional<Command> c;
    try {
      c = parse_command(line);
    } catch (const CommandError&) {
      // pbmserv's form with the credentials inline, typed on a text transport (issue 15 item 2):
      // a login, then the command. Only lines that are no command as they are.
      // The rewritten line must be a command and the user a possible name: otherwise the
      // line's own error says more than "wrong name or password".
      const MailCommand m = rewrite_subject(line);
      if (m.kind != MailCommand::Kind::kCredentials || m.chat || !valid_user_name(m.user)) throw;
      bool parses = true;
      try {
        parse_command(m.line);
      } catch (const CommandError&) {
        parses = false;
      }
      if (!parses) throw;
      return login_and_run(ctx, m);
    }
    if (c && !comment.empty() && takes_comment(c->verb)) c->text = comment;
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
    case Verb::kNotify:
      return cmd_notify(ctx, c);
    case Verb::kVacation:
      return cmd_vacation(ctx, c);
    case Verb::kHistory:
      return cmd_history(ctx, c);
    case Verb::kChange:
      return cmd_change(ctx, c);
    case Verb::kSignoff:
      return cmd_signoff(ctx);
    case Verb::kSubscribe:
    case Verb::kUnsubscribe:
      return cmd_subscribe(ctx, c);
    case Verb::kAnalyse:
      return cmd_analyse(ctx, c);
    case Verb::kPreview:
      if (!c.args.empty() && c.args[0] == "new") return cmd_preview_new(ctx, c);
      return to_table(ctx, c);
    default:
      return to_table(ctx, c);
  }
}

std::shared_ptr<Table> Lobby::add_table(std::shared_ptr<const Game> game, std::string creator,
                                        std::vector<SeatOwner> seats, ClockSettings clock,
                                        const std::function<void(const TableIndex&)>& check) {
  const std::string name = game->name();
  return directory_.create(name, check, [&](int number, std::int64_t id) {
    return std::make_shared<Table>(*this, id, std::move(game), number, std::move(creator),
                                   std::move(seats), clock, now_ms());
  });
}

std::shared_ptr<Table> Lobby::open_external_table(const std::string& spec,
                                                  std::vector<SeatOwner> seats, std::string creator,
                                                  std::string orphan_reason,
                                                  Table::ChatListener on_chat,
                                                  std::function<void()> stored) {
  auto game = make_game(spec);
  if (static_cast<int>(seats.size()) != game->num_seats()) {
    throw RuleError(game->spec() + " needs " + std::to_string(game->num_seats()) +
                    " players, got " + std::to_string(seats.size()));
  }
  auto table = add_table(game, std::move(creator), std::move(seats), ClockSettings{}, nullptr);
  table->open_external(std::move(orphan_reason), std::move(on_chat), std::move(stored));
  return table;
}

namespace {

// The -NAME=VALUE parameters of `open` and `challenge`: the game's options as "name=value"
// items and the table's clock (`-clock=...`, docs/PROTOCOL.md) with its correspondence time
// (`-nagtime=DAYS`, `-forfeittime=DAYS`; a table that does not say gets the server's defaults
// for `by_mail` or not, LobbyLimits). Throws CommandError for a bad clock or number of days.
std::pair<std::vector<std::string>, ClockSettings> game_options_and_clock(
    const Command& c, const LobbyLimits& limits, bool by_mail) {
  std::vector<std::string> opts;
  ClockSettings clock;
  clock.corr = {by_mail ? limits.mail_nag_days : limits.nag_days,
                by_mail ? limits.mail_forfeit_days : limits.forfeit_days, by_mail};
  for (const auto& [k, v] : c.params) {
    try {
      if (k == "clock") {
        const CorrespondenceSettings corr = clock.corr;
        clock = parse_clock(v);
        clock.corr = corr;
      } else if (k == "nagtime") {
        clock.corr.nag_days = parse_correspondence_days(k, v);
      } else if (k == "forfeittime") {
        clock.corr.forfeit_days = parse_correspondence_days(k, v);
      } else {
        opts.push_back(k + "=" + v);
      }
    } catch (const std::invalid_argument& e) {
      throw CommandError(e.what());
    }
  }
  return {opts, clock};
}

}  // namespace

void Lobby::cmd_open(Ctx& ctx, const Command& c) {
  if (ctx.client->user.empty()) throw CommandError("log in first");
  auto [opts, clock] = game_options_and_clock(c, limits_, false);
  auto game = make_game(c.game, join(opts, ","));
  if (forward_new_table(ctx, true)) return;  // another node has fewer tables
  auto table = add_table(game, ctx.client->user, {}, clock, [&](const TableIndex& tables) {
    check_table_quota(tables, ctx.client->user, ctx.client->guest, limits_);
  });
  ctx.client->current = table;
  ctx.deferred = true;
  table->create(ctx.caller(), ctx.done);
}

void Lobby::cmd_table(Ctx& ctx, const Command& c) {
  if (forward_table_command(ctx, c)) return;  // another node serves it
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
  auto [opts, clock] = game_options_and_clock(c, limits_, ctx.client->by_mail());
  for (const auto& f : c.flags) opts.push_back(f);  // --winningways: a preset
  auto game = make_game(c.game, join(opts, ","));
  if (static_cast<int>(c.args.size()) != game->num_seats()) {
    const GameInfo& info = game->info();
    const std::size_t got = c.args.size();
    std::string hint;
    if (!info.seat_count_option.empty() && got >= static_cast<std::size_t>(info.min_seats) &&
        got <= static_cast<std::size_t>(info.max_seats)) {
      hint = "; for " + std::to_string(got) + " players add -" + info.seat_count_option + "=" +
             std::to_string(got);
    }
    throw CommandError(game->spec() + " needs " + std::to_string(game->num_seats()) +
                       " players, got " + std::to_string(got) + hint);
  }
  std::vector<SeatOwner> seats;
  bool me = false;
  for (const std::string& who : c.args) {
    const std::string lower = to_lower(who);
    if (starts_with(lower, "cpu:")) {
      const std::string level = lower.substr(4);
      if (!is_bot_for(level, *game)) {
        throw CommandError("bad CPU level: '" + level.substr(0, 30) + "' does not play " +
                           game->name() + "; its computer players are " + bot_names_for(*game));
      }
      seats.push_back({SeatKind::kCpu, level});
      continue;
    }
    // The challenger is who it is, also when its command came from another node, which
    // knows its account or guest name (lobby_forward.cpp).
    std::string canonical =
        lower == to_lower(ctx.client->user) ? ctx.client->user : accounts_.canonical(lower);
    if (canonical.empty()) canonical = presence_.online_name(lower);  // a guest
    if (canonical.empty()) canonical = cluster_user(lower);  // one of another node
    if (canonical.empty()) throw CommandError("no user named '" + who.substr(0, 30) + "'");
    for (const auto& s : seats) {
      if (s.kind == SeatKind::kUser && to_lower(s.name) == lower) {
        throw CommandError(canonical + " is named twice");
      }
    }
    if (lower == to_lower(ctx.client->user)) me = true;
    seats.push_back({SeatKind::kUser, canonical});
  }
  if (!me) throw CommandError("you must be one of the players of your challenge");
  if (forward_new_table(ctx, std::all_of(seats.begin(), seats.end(), [&](const SeatOwner& s) {
                          return s.kind != SeatKind::kUser ||
                                 to_lower(s.name) == to_lower(ctx.client->user);
                        }))) {
    return;  // another node has fewer tables
  }
  // The checks and the new table in one step: two challenges at once cannot both slip in.
  auto table = add_table(game, ctx.client->user, seats, clock, [&](const TableIndex& tables) {
    check_table_quota(tables, ctx.client->user, ctx.client->guest, limits_);
    for (const auto& s : seats) {
      if (s.kind != SeatKind::kUser || to_lower(s.name) == to_lower(ctx.client->user)) continue;
      if (auto limit = accounts_.challenge_limit(s.name)) {
        check_challenge_accepted(tables, s.name, *limit);
      }
    }
  });
  ctx.client->current = table;
  ctx.deferred = true;
  if (!remote_feed_) return table->create(ctx.caller(), ctx.done);
  // Once the table is stored, its players connected to other nodes hear of it there.
  table->create(ctx.caller(), [this, table, seats, caller = ctx.client, done = ctx.done] {
    feed_table_made(table, seats, caller);
    if (done) done();
  });
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
  if (!c.game.empty()) {
    auto t = directory_.find(c.game, *c.board);
    if (!t || !reachable(t)) throw CommandError(unknown_table_error(c));
    return t;
  }
  std::shared_ptr<Table> found;
  std::vector<std::string> games;
  for (const auto& t : directory_.with_number(*c.board)) {
    if (reachable(t)) {
      found = t;
      games.push_back(t->game_name());
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
  if (forward_table_command(ctx, c)) return;  // another node serves it
  if (c.verb == Verb::kInvite) learn_invitee(c);
  auto table = resolve_board(ctx, c);
  if (c.verb == Verb::kWatch) ctx.client->current = table;
  ctx.deferred = true;
  table->handle(ctx.caller(), c, ctx.done);
}

}  // namespace plateau::server
