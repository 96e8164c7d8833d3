#include "cluster/node.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <stdexcept>

#include "cluster/mail_db.h"

namespace plateau::cluster {

namespace {

// A connection that is down is opened again before use.
Connection& ready(std::unique_ptr<Connection>& c, const std::string& url) {
  if (!c) {
    c = std::make_unique<Connection>(url);
  } else if (!c->ok()) {
    c->reconnect();
  }
  return *c;
}

}  // namespace

Node::Node(NodeOptions options) : options_(std::move(options)) {
  url_ = url_for_node(options_.url, options_.id);
  try {
    control_ = std::make_unique<Connection>(url_);
    if (!register_node(*control_, {options_.id, options_.address, options_.node_port, 0, 0})) {
      throw std::runtime_error("another plateau serve runs as node " + options_.id +
                               " on this database (it holds the node's lock)");
    }
    claimed_ = claim_tables(*control_, options_.id, {options_.id, ""});
    prepare_mail_tables(*control_);
  } catch (const store::pg::ConnectionLost&) {
    throw;  // names the (redacted) URL already
  } catch (const store::pg::Error& e) {
    throw std::runtime_error("node " + options_.id + ": " + e.what());
  }
  judge_after_ms_ = steady_ms() + options_.timing.grace_ms;
  spdlog::info("node {}: registered ({}, node port {}); {} tables claimed", options_.id,
               options_.address, options_.node_port, claimed_.size());
}

Node::~Node() { stop(); }

std::int64_t Node::steady_ms() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void Node::start(Adopt adopt, std::function<void()> recheck) {
  adopt_ = std::move(adopt);
  recheck_ = std::move(recheck);
  thread_ = std::thread([this] { loop(); });
}

void Node::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && !thread_.joinable()) return;
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (!control_ || !control_->ok()) return;
  try {
    // The others see it gone at their next round; its lock goes with the connection.
    control_->run("UPDATE nodes SET seen_at = 0 WHERE id = $1",
                  store::pg::Params().text(options_.id));
    spdlog::info("node {}: left the cluster", options_.id);
  } catch (const std::exception& e) {
    spdlog::warn("node {}: cannot mark itself gone: {}", options_.id, e.what());
  }
  control_.reset();
}

void Node::loop() {
  for (;;) {
    try {
      round();
    } catch (const std::exception& e) {
      // The database restarted or is unreachable: the next round connects again.
      spdlog::warn("node {}: {}", options_.id, e.what());
    }
    std::unique_lock lock(mutex_);
    if (wake_.wait_for(lock, std::chrono::milliseconds(options_.timing.heartbeat_ms),
                       [&] { return stopping_; })) {
      return;
    }
  }
}

void Node::round() {
  if (!control_ || !control_->ok() || !registered_) {
    const bool reconnect = !control_ || !control_->ok();
    registered_ = false;
    Connection& db = ready(control_, url_);
    if (!register_node(db, {options_.id, options_.address, options_.node_port, 0, 0})) {
      // Our old session is still seen by the server (it has not noticed the lost connection
      // yet): its lock goes with it shortly.
      throw std::runtime_error("its lock is still held; registering again at the next round");
    }
    registered_ = true;
    if (reconnect) {
      spdlog::info("node {}: connected again", options_.id);
      judge_after_ms_ = steady_ms() + options_.timing.grace_ms;
    }
    // Away long enough, its tables may have been taken over: each checks at once (a fenced
    // write) instead of at its next move, so that none is served stale meanwhile.
    if (recheck_) recheck_();
  }
  if (!heartbeat(*control_, options_.id)) {
    // Another node found us dead (we were frozen or cut off) and took our tables: each of
    // them is fenced at its next write. Register again to be a live node.
    spdlog::warn("node {}: its row was gone (taken over); registering again", options_.id);
    registered_ = false;
    return;
  }
  adopt_pending();
  read_account_changes();
  if (steady_ms() < judge_after_ms_) return;
  auto peers = stale_nodes(*control_, options_.id, options_.timing.dead_after_ms);
  // Tables whose owner has no row at all: as a dead node's (unseen: unknown, 0).
  for (auto& orphan : orphan_owners(*control_, options_.id)) peers.emplace_back(orphan, 0);
  for (const auto& [peer, unseen] : peers) {
    if (try_lock_node(*control_, peer)) {
      try {
        take_over(peer, unseen);
      } catch (...) {
        unlock_node(*control_, peer);
        throw;
      }
      unlock_node(*control_, peer);
    } else if (unseen >= options_.timing.frozen_after_ms) {
      const int ended = terminate_node(*control_, peer);
      spdlog::warn(
          "node {}: node {} unseen for {} ms holds its lock (frozen?): {} of its "
          "sessions ended",
          options_.id, peer, unseen, ended);
    }
  }
}

void Node::read_account_changes() {
  // Changes may commit a little after the time the trigger recorded: read back a margin.
  constexpr std::int64_t kEveryMs = 1000, kMarginMs = 10000;
  if (!accounts_changed_ || steady_ms() - accounts_read_at_ms_ < kEveryMs) return;
  const std::int64_t since = accounts_read_db_ms_ == 0 ? db_now_ms(*control_) - 6 * kMarginMs
                                                       : accounts_read_db_ms_ - kMarginMs;
  AccountChanges changes = changed_accounts(*control_, since);
  accounts_read_db_ms_ = changes.now_ms;
  accounts_read_at_ms_ = steady_ms();
  if (!changes.rows.empty()) accounts_changed_(std::move(changes.rows));
}

void Node::take_over(const std::string& dead, std::int64_t unseen_ms) {
  const auto start = std::chrono::steady_clock::now();
  pending_.push_back({dead, claim_tables(*control_, options_.id, {dead}), unseen_ms, start});
  adopt_pending();
}

void Node::adopt_pending() {
  while (!pending_.empty()) {
    Claimed& c = pending_.front();
    std::vector<LoadedTable> tables = load_tables(*control_, c.ids, options_.events_per_table);
    const std::size_t count = tables.size();
    if (adopt_ && !tables.empty()) adopt_(std::move(tables), c.unseen_ms);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - c.since)
                        .count();
    spdlog::info("node {}: took over {} tables of node {} (unseen for {} ms) in {} ms", options_.id,
                 count, c.from, c.unseen_ms, ms);
    pending_.erase(pending_.begin());
  }
}

template <typename F>
auto Node::on_side(const char* what, F f) -> decltype(f(std::declval<Connection&>())) {
  std::lock_guard lock(side_mutex_);
  try {
    try {
      return f(ready(side_, url_));
    } catch (const store::pg::ConnectionLost&) {
      // Lost while idle (the database restarted, or this node's sessions were ended after a
      // freeze): once more on a new connection.
      side_.reset();
      return f(ready(side_, url_));
    }
  } catch (const std::exception& e) {
    spdlog::warn("node {}: cannot read {}: {}", options_.id, what, e.what());
    side_.reset();
    return std::nullopt;
  }
}

std::pair<int, std::int64_t> Node::allocate(const std::string& game) {
  std::lock_guard lock(side_mutex_);
  try {
    return allocate_table(ready(side_, url_), game);
  } catch (const store::pg::ConnectionLost&) {
    // Lost while idle (the database restarted): once more on a new connection.
    side_.reset();
    return allocate_table(ready(side_, url_), game);
  }
}

std::int64_t Node::reserve(const std::string& name, std::int64_t floor, std::int64_t count) {
  std::lock_guard lock(side_mutex_);
  try {
    return reserve_counter(ready(side_, url_), name, floor, count);
  } catch (const store::pg::ConnectionLost&) {
    side_.reset();  // lost while idle: once more on a new connection
    return reserve_counter(ready(side_, url_), name, floor, count);
  }
}

std::optional<store::NodeRow> Node::owner_of(const std::string& game, int number) {
  return on_side("a table's owner",
                 [&](Connection& db) { return cluster::owner_of(db, game, number); });
}

std::optional<store::AccountRow> Node::account(const std::string& name) {
  return on_side("an account", [&](Connection& db) { return fetch_account(db, name); });
}

std::optional<store::TokenRow> Node::token(const std::string& selector) {
  return on_side("a resume token", [&](Connection& db) { return fetch_token(db, selector); });
}

std::optional<std::vector<store::VacationRow>> Node::vacations(std::int64_t since_ms) {
  return on_side("vacations", [&](Connection& db) -> std::optional<std::vector<store::VacationRow>> {
    return fetch_vacations(db, since_ms);
  });
}

std::optional<bool> Node::mail_seen(const std::string& sender, const std::string& message_id) {
  return on_side("the mail already run", [&](Connection& db) -> std::optional<bool> {
    return cluster::mail_seen(db, sender, message_id);
  });
}

std::optional<std::vector<store::RatingRow>> Node::ratings(
    const std::string& game, const std::vector<std::string>& players) {
  return on_side("ratings", [&](Connection& db) -> std::optional<std::vector<store::RatingRow>> {
    return fetch_ratings(db, game, players);
  });
}

}  // namespace plateau::cluster

namespace plateau::cluster {

std::optional<std::vector<std::pair<std::string, store::NodeRow>>> Node::owners_of_number(
    int number) {
  return on_side(
      "the owners of a board number",
      [&](Connection& db) -> std::optional<std::vector<std::pair<std::string, store::NodeRow>>> {
        return cluster::owners_of_number(db, number);
      });
}

std::optional<std::vector<std::pair<store::NodeRow, std::int64_t>>> Node::loads() {
  return on_side(
      "the nodes' loads",
      [&](Connection& db) -> std::optional<std::vector<std::pair<store::NodeRow, std::int64_t>>> {
        return node_loads(db, options_.timing.dead_after_ms);
      });
}

}  // namespace plateau::cluster
