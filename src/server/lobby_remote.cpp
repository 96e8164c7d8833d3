// `watch`, `show` and `resync` of a table another live node serves, answered on this node from
// the database (issue 16 item 3; docs/CLUSTER.md, "Events across nodes"), and the caller then
// follows the table through the event feed (remote_feed.h). Without the node link these are the
// only commands a client may give a remote table here; with it, the link may forward them
// instead.
#include <spdlog/spdlog.h>

#include "cluster/feed_db.h"
#include "core/text.h"
#include "server/lobby.h"
#include "server/lobby_ctx.h"
#include "server/remote_feed.h"
#include "server/table_access.h"
#include "server/table_events.h"

namespace plateau::server {

using nlohmann::json;

namespace {

// Who may reach the table, from its snapshot (Table::data_json): invisible tables only their
// players, host and invitees (table_access.h), as on the owner.
TableAccess access_of(const std::string& data) {
  TableAccess a;
  const json j = json::parse(data);
  a.invisible = j.value("flags", json::object()).contains("invisible");
  a.host = j.value("creator", std::string());
  for (const auto& s : j.value("seats", json::array())) {
    if (s.value("kind", "") == "user") a.seated.push_back(s.value("name", ""));
  }
  for (const auto& i : j.value("invited", json::array())) {
    if (i.is_string()) a.invited.insert(to_lower(i.get<std::string>()));
  }
  return a;
}

}  // namespace

void Lobby::to_table_or_remote(Ctx& ctx, Command& c) {
  try {
    to_table(ctx, c);
  } catch (const CommandError&) {
    if (!ctx.deferred && answer_remote(ctx, c)) return;  // another node's table
    throw;
  }
}

bool Lobby::answer_remote(Ctx& ctx, const Command& c) {
  if (!remote_feed_ || !c.board || (c.verb == Verb::kShow && c.ply_check)) return false;
  if (c.verb != Verb::kWatch && c.verb != Verb::kShow && c.verb != Verb::kResync) return false;
  const std::string self = node_id();
  auto& feed = remote_feed_->feed();
  auto found = feed.query("a table of another node", [&](cluster::Connection& db) {
    return cluster::remote_tables(db, c.game, *c.board);
  });
  if (!found) throw CommandError("the database cannot be reached; try again");
  std::vector<cluster::RemoteTable> tables;
  for (auto& t : *found) {
    if (t.owner == self || !t.owner_live) continue;
    try {
      if (!may_reach(access_of(t.data), ctx.client->user)) continue;
    } catch (const std::exception& e) {
      spdlog::warn("table id {}: its row cannot be read: {}", t.id, e.what());
      continue;
    }
    tables.push_back(std::move(t));
  }
  if (tables.empty()) return false;
  if (tables.size() > 1) {
    std::vector<std::string> games;
    for (const auto& t : tables) games.push_back(t.game);
    throw CommandError("board " + std::to_string(*c.board) + " exists for " + join(games, " and ") +
                       "; say which, e.g. " + games[0] + " " + std::string(verb_name(c.verb)) +
                       " " + std::to_string(*c.board));
  }
  const cluster::RemoteTable& t = tables[0];
  const std::string label = t.game + " " + std::to_string(*c.board);
  if (c.verb != Verb::kShow) {
    if (auto why = remote_feed_->refusal(ctx.client, t.id); !why.empty()) throw CommandError(why);
  }
  if (c.verb == Verb::kResync) {
    const std::int64_t from = std::stoll(c.args.at(0));  // digits only (parse_command)
    if (from > t.last_seq) {
      throw CommandError("no event " + std::to_string(from) + " at " + label +
                         " yet; the last is " + std::to_string(t.last_seq));
    }
    const int kept = static_cast<int>(std::min<std::size_t>(limits_.events_kept, 100000));
    auto rows = feed.query("a table's events", [&](cluster::Connection& db) {
      return cluster::events_after(db, t.id, from, kept + 1);
    });
    if (!rows) throw CommandError("the database cannot be reached; try again");
    if (static_cast<int>(rows->size()) > kept) {
      throw CommandError("the events of " + label + " after " + std::to_string(from) +
                         " are too many to replay; /watch " + std::to_string(*c.board) +
                         " for the whole board, then resync from its seq");
    }
    std::vector<std::shared_ptr<const RenderedEvent>> events;
    for (const auto& r : *rows) {
      events.push_back(std::make_shared<const RenderedEvent>(decode_table_event(r)));
    }
    const std::int64_t last = rows->empty() ? from : rows->back().seq;
    const std::size_t count = events.size();
    ctx.client->send_replayed(std::move(events));
    ctx.reply(
        Event{"resync",
              {{"game", t.game},
               {"board", *c.board},
               {"from", from},
               {"seq", last},
               {"count", count},
               {"text", "Resynced " + label + ": " + std::to_string(count) + " events after " +
                            std::to_string(from) + "; now at " + std::to_string(last) + "."}},
              {}});
    remote_feed_->follow(ctx.client, t.id, t.game, *c.board, last);
    return true;
  }
  // watch, show: the board as the last stored page shows it (a "board" answer, as the owner's,
  // with what that event says of the position), then (watch) the events after.
  auto page = feed.query("a table's board", [&](cluster::Connection& db) {
    return cluster::last_page_event(db, t.id, t.last_seq);
  });
  if (!page) throw CommandError("the database cannot be reached; try again");
  Event shown{"board", {{"game", t.game}, {"board", *c.board}}, {}};
  if (*page) {
    const Event stored = decode_table_event(**page);
    shown.page = stored.page;
    for (const char* key : {"ply", "position", "status", "status_line", "next_user"}) {
      if (stored.data.contains(key)) shown.data[key] = stored.data[key];
    }
  }
  shown.data["last_seq"] = t.last_seq;
  if (c.verb == Verb::kWatch) {
    shown.data["text"] = "You are watching " + label + ".";
    ctx.reply(shown);
    remote_feed_->follow(ctx.client, t.id, t.game, *c.board, t.last_seq);
  } else {
    // A table still in set-up has stored no page yet: say so rather than answer nothing.
    shown.data["text"] = shown.page.empty() ? label + " has no board to show yet." : "";
    ctx.reply(shown);
  }
  return true;
}

}  // namespace plateau::server
