// The Lobby as one node among several on one PostgreSQL database (issue 16; docs/CLUSTER.md):
// new tables and guest names numbered by the database, tables taken over from a dead node, and
// the accounts and resume tokens another node stored since this one started.
#include <spdlog/spdlog.h>

#include "cluster/node.h"
#include "core/text.h"
#include "server/lobby.h"
#include "server/remote_feed.h"

namespace plateau::server {

void Lobby::set_node(cluster::Node* node) {
  node_ = node;
  if (node_) {
    accounts_.set_fetch([node](const std::string& name) { return node->account(name); });
    // A password, notify setting or address changed on another node holds here too.
    node->set_accounts_changed(
        [this](std::vector<store::AccountRow> rows) { accounts_.restore(rows); });
    ratings_.set_fetch([node](const std::string& game, const std::vector<std::string>& players) {
      return node->ratings(game, players);
    });
    guests_.set_reserver([node](std::int64_t floor, std::int64_t count) {
      return node->reserve(GuestNames::kCounter, floor, count);
    });
    directory_.set_allocator([node](const std::string& game) {
      try {
        return node->allocate(game);
      } catch (const std::exception& e) {
        spdlog::error("node {}: cannot number a new {} table: {}", node->id(), game, e.what());
        throw CommandError("no table can be opened now (the database cannot be reached); try "
                           "again");
      }
    });
  }
}

const std::string& Lobby::node_id() const {
  return node_ ? node_->id() : TableServices::node_id();
}

std::optional<store::NodeRow> Lobby::owner_of(const std::string& game, int number) {
  if (!node_) return std::nullopt;
  return node_->owner_of(game, number);
}

void Lobby::adopt_tables(std::vector<cluster::LoadedTable> tables, std::int64_t downtime_ms) {
  std::vector<std::shared_ptr<Table>> adopted;
  {
    std::lock_guard lock(mutex_);
    for (const auto& t : tables) {
      directory_.reserve(t.row.game, t.row.number, t.row.id);
      if (auto table = rebuild_table(t.row, t.moves, t.chat, t.events)) {
        directory_.insert(table);
        adopted.push_back(std::move(table));
      }
    }
  }
  // Clocks stood still while nobody could move; CPU seats think again.
  for (auto& t : adopted) t->resume(downtime_ms);
}

void Lobby::recheck_tables() {
  for (const auto& t : directory_.all()) t->recheck_owner();
}

void Lobby::catch_up_token(std::string_view token) {
  if (!node_) return;
  const auto selector = ResumeTokens::selector_of(token);
  if (!selector || tokens_.knows(*selector)) return;
  if (auto row = node_->token(*selector)) tokens_.restore({*row}, now_ms());
}

void Lobby::set_remote_feed(RemoteFeed* feed) {
  remote_feed_ = feed;
  remote_follow_ = feed;
}

std::vector<std::pair<nlohmann::json, std::string>> Lobby::remote_tables() const {
  std::vector<std::pair<nlohmann::json, std::string>> out;
  if (!remote_feed_) return out;
  for (auto& l : remote_feed_->remote_listing()) out.emplace_back(std::move(l.item), l.line);
  return out;
}

std::optional<bool> Lobby::mail_seen_stored(const std::string& sender,
                                            const std::string& message_id) {
  if (!node_) return std::nullopt;
  return node_->mail_seen(sender, message_id);
}

bool Lobby::online_elsewhere(const std::string& user) const {
  const std::string lower = to_lower(user);
  for (const auto& n : feed_names()) {
    if (to_lower(n) == lower) return true;
  }
  return false;
}

std::vector<std::string> Lobby::feed_names() const {
  return remote_feed_ ? remote_feed_->remote_names() : std::vector<std::string>{};
}

std::string Lobby::cluster_user(const std::string& name) {
  if (!node_) return "";
  if (auto row = node_->account(name)) {
    if (accounts_.canonical(row->name).empty()) accounts_.restore({*row});
    return row->name;
  }
  for (const auto& n : feed_names()) {
    if (to_lower(n) == name) return n;
  }
  return "";
}

void Lobby::feed_user_changed(const std::shared_ptr<Client>& client, const std::string& old_name) {
  if (!remote_feed_) return;
  remote_feed_->presence_changed(old_name);
  if (client->user != old_name) {
    remote_feed_->presence_changed(client->user);
    if (!old_name.empty()) remote_feed_->left(client, old_name);
  }
  // A player of tables of other nodes follows them here (read on the feed's thread).
  if (!client->gone && !client->user.empty() && client->user != old_name) {
    remote_feed_->arrived(client, client->user);
  }
}

void Lobby::feed_table_made(const std::shared_ptr<Table>& table,
                            const std::vector<SeatOwner>& seats,
                            const std::shared_ptr<Client>& caller) {
  if (!remote_feed_ || find_table(table->game_name(), table->number()) != table) return;
  // The challenger too: their other connections, on other nodes, hear of it as on one server
  // (all of a player's connections do); the one that sent it from another node is left out.
  std::vector<std::string> seated;
  for (const auto& s : seats) {
    if (s.kind == SeatKind::kUser) seated.push_back(s.name);
  }
  const auto [skip_node, skip_cid] = stand_in_of(caller.get());
  remote_feed_->notify_seated(table->id(), table->game_name(), table->number(), seated, skip_node,
                              skip_cid);
}

}  // namespace plateau::server
