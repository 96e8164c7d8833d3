// The Lobby's listing commands: who, games, help, tables (listing_json/listing_line, the same
// serialiser as /api/tables), standings.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/registry.h"
#include "core/text.h"
#include "server/lobby.h"
#include "server/lobby_ctx.h"
#include "server/table_access.h"

namespace plateau::server {

using nlohmann::json;

void Lobby::cmd_who(Ctx& ctx) {
  std::vector<std::string> names = presence_.names();
  // And those of the other live nodes (as read at most a second ago), each name once.
  for (auto& n : feed_names()) {
    if (presence_.online_name(n).empty()) names.push_back(std::move(n));
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
    items.push_back(listing_json(s));  // the same serialiser as /api/tables
    lines.push_back(listing_line(s));
  }
  for (auto& [item, line] : remote_tables()) {  // the other live nodes' visible tables
    if (!c.game.empty() && item.value("game", "") != c.game) continue;
    items.push_back(std::move(item));
    lines.push_back(std::move(line));
  }
  if (lines.empty()) lines.push_back("No tables.");
  ctx.reply(list_event("tables", items, lines));
}

void Lobby::cmd_standings(Ctx& ctx, const Command& c) {
  make_game(c.game);  // throws OptionError listing the games for a bad name
  const std::vector<store::RatingRow> rows = ratings_.standings(c.game);
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

}  // namespace plateau::server
