// The lobby's part of correspondence play (issue 15, items 4 and 5; docs/MAIL.md): the
// `notify` and `vacation` commands, the tick that has every playing table check its
// correspondence time (table_correspondence.cpp), and the daily digest (notifier.h).
#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

#include "cluster/node.h"
#include "core/registry.h"
#include "core/text.h"
#include "server/lobby.h"
#include "server/lobby_ctx.h"
#include "server/notifier.h"
#include "server/table_quota.h"
#include "server/wall_clock.h"

namespace plateau::server {

namespace {

std::string describe_notify(const std::string& mode) {
  if (mode == kNotifyDigest) {
    return "notify digest: one mail a day lists the boards waiting for your move.";
  }
  if (mode == kNotifyOff) return "notify off: no mail about games you are not connected to.";
  return "notify every: a mail about each event of your games while you are not connected.";
}

void require_account(const Client& client, const std::string& what) {
  if (client.user.empty()) throw CommandError("log in first");
  if (client.guest) throw CommandError("guests have no " + what + "; register an account");
}

}  // namespace

void Lobby::cmd_notify(Ctx& ctx, const Command& c) {
  require_account(*ctx.client, "mail settings");
  const std::string user = ctx.client->user;
  if (c.args.empty()) {
    const std::string address = accounts_.email_of(user);
    return ctx.reply(ok_event(describe_notify(accounts_.notify_of(user)) +
                              (address.empty() ? " (Your account has no mail address.)" : "")));
  }
  ctx.deferred = true;
  accounts_.set_notify(user, c.args[0],
                       [client = ctx.client, done = ctx.done,
                        text = describe_notify(c.args[0])](std::string error) {
                         client->send(error.empty() ? ok_event(text) : error_event(error), true);
                         if (done) done();
                       });
}

void Lobby::cmd_vacation(Ctx& ctx, const Command& c) {
  require_account(*ctx.client, "vacations");
  const std::string user = ctx.client->user;
  const std::int64_t now = now_ms();
  if (c.args.empty()) return ctx.reply(ok_event(vacations_.describe(user, now)));
  auto answer = [this, user, now, client = ctx.client, done = ctx.done](std::string error) {
    client->send(error.empty() ? ok_event(vacations_.describe(user, now)) : error_event(error),
                 true);
    if (done) done();
  };
  if (c.args[0] == "off") {
    vacations_.end(user, now, answer);
  } else {
    const auto days = std::stoll(c.args[0]);  // digits only (parse_command), at most 9
    vacations_.start(user, static_cast<int>(std::min<long long>(days, 1000)), now, answer);
  }
  ctx.deferred = true;
}

void Lobby::arm_correspondence_tick() {
  correspondence_timer_.expires_after(limits_.correspondence_tick);
  correspondence_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;
    if (!limits_.test_clock_offset_file.empty()) {
      if (auto offset = read_clock_offset_file(limits_.test_clock_offset_file)) {
        set_wall_clock_offset_ms(*offset);
      }
    }
    if (!node_) return correspondence_round();
    // Several nodes: a vacation may have started on another node; read them again first, on a
    // worker (a database that cannot be reached may hold a connection attempt for seconds).
    boost::asio::post(workers_, [this] {
      constexpr std::int64_t kYearMs = 366 * kDayMs;
      auto rows = node_->vacations(now_ms() - kYearMs);
      boost::asio::post(io_, [this, rows = std::move(rows)] {
        if (rows) vacations_.refresh(*rows);
        correspondence_round();
      });
    });
  });
}

void Lobby::correspondence_round() {
  for (const auto& t : directory_.all()) {
    const TableSummary s = t->summary();
    if (s.status == TableStatus::kPlaying && s.correspondence) t->check_correspondence();
  }
  send_digests();
  arm_correspondence_tick();
}

void Lobby::send_digests() {
  TableMailer* mailer = mailer_;
  const std::int64_t day = now_ms() / kDayMs;
  if (!mailer || day <= digest_day_ || digest_busy_) return;
  std::map<std::string, std::vector<WaitingBoard>> waiting;  // lower-case user -> boards
  for (const auto& t : directory_.all()) {
    const TableSummary s = t->summary();
    if (s.next_user.empty()) continue;
    std::string title = s.game;
    for (const GameInfo* g : registered_games()) {
      if (g->name == s.game) title = g->title;
    }
    waiting[to_lower(s.next_user)].push_back(
        {title + " Board " + std::to_string(s.number),
         s.game + " " + std::to_string(s.number), s.turn_started_ms});
  }
  if (node_) {
    // Several nodes: each node knows only the boards it serves; the nodes' parts make one
    // digest per user, assembled once (TableMailer::share_digest_part). Handed again every
    // tick until the day is assembled, so that tables taken over meanwhile are in it.
    nlohmann::json part = nlohmann::json::object();
    for (const auto& [user, boards] : waiting) {
      auto& list = part[user] = nlohmann::json::array();
      for (const auto& b : boards) {
        list.push_back({{"title", b.title}, {"label", b.label}, {"since", b.since_ms}});
      }
    }
    digest_busy_ = true;
    const bool shared = mailer->share_digest_part(day, part.dump(), [this, day](bool assembled) {
      if (assembled && digest_day_ < day) digest_day_ = day;
      digest_busy_ = false;
    });
    if (shared) return;
    digest_busy_ = false;
  }
  store::Batch batch;
  std::vector<std::function<void()>> steps;
  for (const auto& user : accounts_.names_notified(kNotifyDigest)) {
    auto it = waiting.find(to_lower(user));
    if (it == waiting.end()) continue;
    auto step = mailer->add_mail("digest." + std::to_string(day) + " " + to_lower(user), user,
                                 "Plateau: your move on " + count_of(static_cast<int>(it->second.size()), "board"),
                                 digest_body(user, it->second), batch);
    if (step) steps.push_back(std::move(step));
  }
  batch.put_counter("digest_day", day);
  digest_busy_ = true;
  spdlog::info("mail: {} digests for day {}", steps.size(), day);
  store_.submit(std::move(batch), [this, day, steps = std::move(steps)](std::exception_ptr error) {
    if (!error) {
      digest_day_ = day;
      for (const auto& step : steps) step();
    } else {
      spdlog::error("mail: the digests of day {} could not be stored; retrying", day);
    }
    digest_busy_ = false;
  });
}

}  // namespace plateau::server
