// The Lobby's account commands (issue 13, item 3: routing to the services): register, login,
// guest, resume, logout, limit; the resume-token sweep and what happens when a guest leaves.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <set>

#include "core/text.h"
#include "server/lobby.h"
#include "server/lobby_ctx.h"
#include "server/table_quota.h"

namespace plateau::server {

using nlohmann::json;

void Lobby::set_user(const std::shared_ptr<Client>& client, const std::string& user, bool guest) {
  const std::string old_name = client->user;
  const std::string guest_gone = presence_.set_user(client, user, guest);
  feed_user_changed(client, old_name);
  if (!guest_gone.empty()) guest_left(guest_gone);
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
          // The connection's earlier identity loses its token first, so that a guest it was
          // leaves (its set-up tables go) as without tokens.
          if (client->token_selector != selector) tokens_.revoke(client->token_selector);
          client->token_selector = selector;
          set_user(client, user, guest);
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
  catch_up_token(c.args[0]);
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

void Lobby::arm_token_sweep() {
  // Often enough that a guest's tables go within a quarter of the guest token's lifetime.
  const auto period = std::clamp<std::chrono::milliseconds>(
      std::chrono::duration_cast<std::chrono::milliseconds>(limits_.guest_token_ttl) / 4,
      std::chrono::milliseconds(200), std::chrono::milliseconds(60000));
  sweep_timer_.expires_after(period);
  sweep_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;
    const auto guests =
        tokens_.sweep(now_ms(), [this](const std::string& user) { return presence_.online(user); });
    for (const auto& g : guests) guest_left(g);
    arm_token_sweep();
  });
}

void Lobby::guest_left(const std::string& name) {
  // A guest who may still come back with a resume token keeps its tables until it expires.
  if (tokens_.holds_valid(name, now_ms())) return;
  std::vector<std::shared_ptr<Table>> mine;
  for (const auto& t : directory_.all()) {
    if (same_user(t->creator(), name) && t->summary().status == TableStatus::kSetup) {
      mine.push_back(t);
    }
  }
  for (const auto& t : mine) {
    t->discard_if_unused(name, [this, t](bool discarded) {
      if (discarded) directory_.forget(t->game_name(), t->number(), t.get());
    });
  }
}

void Lobby::discard_abandoned_guest_tables() {
  std::set<std::string> guests;
  for (const auto& t : directory_.all()) {
    const std::string lower = to_lower(t->creator());
    if (starts_with(lower, "guest") && !presence_.online(lower)) guests.insert(t->creator());
  }
  for (const auto& g : guests) guest_left(g);
}

}  // namespace plateau::server
