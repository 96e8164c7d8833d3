// The Lobby as one node among several on one PostgreSQL database (issue 16; docs/CLUSTER.md):
// new tables and guest names numbered by the database, tables taken over from a dead node, and
// the accounts and resume tokens another node stored since this one started.
#include <spdlog/spdlog.h>

#include "cluster/node.h"
#include "server/lobby.h"

namespace plateau::server {

void Lobby::set_node(cluster::Node* node) {
  node_ = node;
  if (node_) {
    accounts_.set_fetch([node](const std::string& name) { return node->account(name); });
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

}  // namespace plateau::server
