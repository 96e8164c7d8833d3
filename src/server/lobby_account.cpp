// The Lobby's pbmserv account and listing commands (issue 15 item 2; specs/phutball.md §10.5):
// history, change password|address, signoff, subscribe/unsubscribe (the per-user bound and
// `unsubscribe all`), and `preview new` (a fresh board, no table).
#include <spdlog/spdlog.h>

#include <atomic>

#include "core/registry.h"
#include "core/text.h"
#include "server/lobby.h"
#include "server/lobby_ctx.h"
#include "server/mail_command.h"
#include "server/password.h"
#include "server/preview.h"
#include "server/table_access.h"

namespace plateau::server {

namespace {

bool plays_at(const TableSummary& s, const std::string& user) {
  for (const auto& seat : s.seats) {
    if (seat.kind == SeatKind::kUser && to_lower(seat.name) == to_lower(user)) return true;
  }
  return false;
}

// An answer from another thread: sent, then the command is done.
std::function<void(std::string)> answer(const Lobby::Ctx& ctx, std::string ok_text) {
  return [client = ctx.client, done = ctx.done, ok_text = std::move(ok_text)](std::string error) {
    client->send(error.empty() ? ok_event(ok_text) : error_event(error), true);
    if (done) done();
  };
}

void require_account(const Lobby::Ctx& ctx) {
  if (ctx.client->user.empty()) throw CommandError("log in first");
  if (ctx.client->guest) throw CommandError("guests have no account; register one");
}

}  // namespace

void Lobby::cmd_history(Ctx& ctx, const Command& c) {
  const std::string user = c.args.empty() ? ctx.client->user : c.args[0];
  if (user.empty()) throw CommandError("usage: history USER (or log in for your own)");
  nlohmann::json items = nlohmann::json::array();
  std::vector<std::string> lines;
  for (const auto& s : table_summaries()) {
    if (s.status != TableStatus::kOver || !plays_at(s, user)) continue;
    if (!c.game.empty() && s.game != c.game) continue;
    if (!may_reach(s.access, ctx.client->user)) continue;
    std::vector<std::string> players;
    for (const auto& seat : s.seats) players.push_back(seat.name);
    items.push_back({{"game", s.game}, {"board", s.number}, {"players", players},
                     {"plies", s.ply}, {"result", s.status_line}});
    lines.push_back(s.game + " " + std::to_string(s.number) + ": " + join(players, ", ") +
                    "; " + std::to_string(s.ply) + " plies; " + s.status_line);
  }
  if (lines.empty()) lines.push_back("No finished games of " + user.substr(0, 30) + ".");
  ctx.reply(list_event("history", items, lines));
}

void Lobby::cmd_change(Ctx& ctx, const Command& c) {
  require_account(ctx);
  const std::string user = ctx.client->user;
  if (c.args[0] == "address") {
    const std::string& address = c.args[1];
    if (!address_check_) throw CommandError("this server sends no mail: no address to change");
    if (auto why = address_check_(address); !why.empty()) {
      throw CommandError("not a usable address: " + std::string(utf8_prefix(address, 80)) + " (" +
                         why + ")");
    }
    ctx.deferred = true;
    accounts_.set_email(user, address, answer(ctx, "Your mail now goes to " + address + "."));
    return;
  }
  // change password OLD NEW: the old one is checked as a login is (the same back-off).
  const std::string fresh = c.args[2];
  if (std::string why = password_policy_error(fresh); !why.empty()) throw CommandError(why);
  ctx.deferred = true;
  accounts_.login(
      user, c.args[1], ctx.client->address(),
      [this, ctx, user, fresh](std::string who, std::string error) {
        if (!error.empty()) return answer(ctx, "")(error);
        try {
          accounts_.set_password(who, fresh, answer(ctx, "Your password is changed."));
        } catch (const std::exception& e) {
          answer(ctx, "")(e.what());
        }
      });
}

void Lobby::cmd_signoff(Ctx& ctx) {
  require_account(ctx);
  const std::string user = ctx.client->user;
  // Boards in play would wait for ever on a player who can no longer move: finish them first.
  std::vector<std::string> open;
  for (const auto& s : table_summaries()) {
    if ((s.status == TableStatus::kPlaying || s.status == TableStatus::kSetup) &&
        plays_at(s, user)) {
      open.push_back(s.game + " " + std::to_string(s.number));
    }
  }
  if (!open.empty()) {
    throw CommandError("finish or resign your open boards first: " + join(open, ", "));
  }
  ctx.deferred = true;
  accounts_.close_account(
      user, [this, client = ctx.client, done = ctx.done, user](std::string error) {
        client->on_strand([this, client, done, user, error] {
          if (error.empty()) {
            tokens_.revoke_user(user);
            client->token_selector.clear();
            set_user(client, "", false);
            client->current.reset();
            spdlog::info("{}: signed off {}", client->describe(), user);
          }
          client->send(error.empty() ? ok_event("The account " + user +
                                                " is closed. Its finished games keep its name.")
                                     : error_event(error),
                       true);
          if (done) done();
        });
      });
}

void Lobby::cmd_preview_new(Ctx& ctx, const Command& c) {
  if (c.game.empty()) throw CommandError("say which game: GAME preview new 2 MOVE...");
  std::vector<std::string> opts;
  for (const auto& [k, v] : c.params) opts.push_back(k + "=" + v);
  for (const auto& f : c.flags) opts.push_back(f);
  auto game = make_game(c.game, join(opts, ","));  // OptionError for a bad option
  const int seats = std::stoi(c.args[1]);
  if (seats != game->num_seats()) {
    throw CommandError(game->spec() + " is played by " + std::to_string(game->num_seats()) +
                       " players, not " + c.args[1]);
  }
  auto state = game->initial_state();
  PageInput in;
  for (int s = 0; s < seats; ++s) in.players.push_back(game->seat_name(s));  // no players yet
  const std::vector<std::string> moves(c.args.begin() + 2, c.args.end());
  const std::string title = "a new " + game->info().title + " board";
  ctx.reply(preview_event(c.game, 0, "Preview of " + title + " (nothing played).",
                          preview_page(*state, in, moves, title)));
}

void Lobby::cmd_subscribe(Ctx& ctx, Command& c) {
  require_account(ctx);
  const std::string user = ctx.client->user;
  std::vector<TableSummary> mine;
  for (auto& s : table_summaries()) {
    for (const auto& name : s.subscribers) {
      if (to_lower(name) == to_lower(user)) mine.push_back(s);
    }
  }
  if (c.verb == Verb::kSubscribe && mine.size() >= kMaxSubscriptionsPerUser) {
    throw CommandError("you are subscribed to " + std::to_string(mine.size()) +
                       " boards, the most there may be; unsubscribe from one first");
  }
  if (c.verb == Verb::kSubscribe || c.board) return to_table(ctx, c);
  // unsubscribe all: each board's table in turn, each answering for itself.
  if (mine.empty()) return ctx.reply(ok_event("You are subscribed to no board."));
  ctx.deferred = true;
  auto left = std::make_shared<std::atomic<std::size_t>>(mine.size());
  for (const auto& s : mine) {
    auto table = find_table(s.game, s.number);
    Command one;
    one.verb = Verb::kUnsubscribe;
    one.game = s.game;
    one.board = s.number;
    auto done = [left, done = ctx.done] {
      if (left->fetch_sub(1) == 1 && done) done();
    };
    if (table) {
      table->handle(ctx.caller(), one, done);
    } else {
      done();
    }
  }
}

void Lobby::login_and_run(Ctx& ctx, const MailCommand& m) {
  ctx.deferred = true;
  accounts_.login(
      m.user, m.password, ctx.client->address(),
      [this, client = ctx.client, done = ctx.done, line = m.line](std::string user,
                                                                  std::string error) {
        client->on_strand([this, client, done, line, user, error] {
          if (!error.empty() || client->gone) {
            if (!client->gone) client->send(error_event(error), true);
            if (done) done();
            return;
          }
          if (to_lower(client->user) != to_lower(user) || client->guest) {
            // The connection's earlier identity and its token go, as with `login`.
            tokens_.revoke(client->token_selector);
            client->token_selector.clear();
            set_user(client, user, false);
            spdlog::info("{}: login {} (inline)", client->describe(), user);
          }
          handle(client, line, done);
        });
      });
}

}  // namespace plateau::server
