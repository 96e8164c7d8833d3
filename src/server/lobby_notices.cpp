// Messages to one user on any node (issue 16 item 3; user_notice.h; docs/CLUSTER.md, "Messages
// to a user on any node"): what a table tells one user alone (an invite, a queued move's
// notice) reaches that user's connections on every node, each once, as on a single server.
#include <spdlog/spdlog.h>

#include <tuple>

#include "core/text.h"
#include "server/lobby_forwarding.h"
#include "server/remote_feed.h"

namespace plateau::server {

bool Lobby::user_exists(const std::string& name) const {
  if (accounts_.exists(name) || presence_.online(name)) return true;
  const std::string lower = to_lower(name);
  for (const auto& n : feed_names()) {
    if (to_lower(n) == lower) return true;  // a guest (or an account) online on another node
  }
  return false;
}

void Lobby::learn_invitee(const Command& c) {
  if (!node_ || c.args.empty() || !valid_user_name(c.args[0]) || accounts_.exists(c.args[0]) ||
      presence_.online(c.args[0])) {
    return;  // no name an account could have: no round trip
  }
  try {
    cluster_user(to_lower(c.args[0]));
  } catch (const std::exception& e) {
    // The table answers as for a name it does not know.
    spdlog::warn("node {}: cannot look up user {}: {}", node_id(), c.args[0].substr(0, 40),
                 e.what());
  }
}

std::pair<std::string, std::uint64_t> Lobby::stand_in_of(const Client* client) {
  if (auto* proxy = dynamic_cast<const forwarding::ProxyClient*>(client)) {
    return {proxy->peer(), proxy->cid()};
  }
  return {"", 0};
}

namespace {

// The forwarded caller heard the message as its answer (or was not to hear it): its node
// leaves that connection out.
void skip_caller(UserNotice& n, const std::shared_ptr<Client>& caller) {
  std::tie(n.skip_node, n.skip_cid) = Lobby::stand_in_of(caller.get());
}

}  // namespace

void Lobby::publish_notice(const UserNotice& n) {
  try {
    std::string payload = user_notice_payload(n);
    if (payload.empty()) {
      if (auto count = notice_logs_.due()) {
        spdlog::warn(
            "node {}: a {} message to {} cannot go to the other nodes (not one a node "
            "sends, or too long); {} since the last line",
            node_id(), n.event.type,
            n.table_id > 0 ? "table id " + std::to_string(n.table_id) : n.to, *count);
      }
      return;
    }
    remote_feed_->publish(std::move(payload));
  } catch (const std::exception& e) {
    spdlog::error("node {}: a message not sent to the other nodes: {}", node_id(), e.what());
  }
}

void Lobby::tell_elsewhere(const std::string& user, const Event& event,
                           const std::shared_ptr<Client>& caller, const std::string& caller_user) {
  if (!remote_feed_ || !node_) return;
  UserNotice n{user, 0, node_id(), "", 0, Event{event.type, event.data, {}, 0}};
  // Only the user's own connection was told as the answer (Table's kUser delivery).
  if (to_lower(caller_user) == to_lower(user)) skip_caller(n, caller);
  publish_notice(n);
}

void Lobby::tell_followers_elsewhere(std::int64_t table_id, const Event& event,
                                     const std::shared_ptr<Client>& caller) {
  // Table events reach the followers through the feed; moves and the like are no messages.
  if (!remote_feed_ || !node_ || event.seq != 0 || (event.type != "ok" && event.type != "error")) {
    return;
  }
  UserNotice n{"", table_id, node_id(), "", 0, Event{event.type, event.data, {}, 0}};
  skip_caller(n, caller);
  publish_notice(n);
  // Spectators here that followed the table through the feed before this node took it over:
  // not the table's watchers, so it did not tell them.
  for (const auto& c : remote_feed_->spectators_here(table_id)) {
    if (c == caller) continue;
    try {
      c->send(n.event, false);
    } catch (const std::exception& e) {
      spdlog::error("node {}: cannot send a {} message to {}: {}", node_id(), event.type,
                    c->describe(), e.what());
    }
  }
}

std::uint64_t Lobby::forwarded_cid(const Client* client) const {
  if (!forwarding_) return 0;
  std::lock_guard lock(forwarding_->mutex);
  auto it = forwarding_->homes.find(client);
  return it == forwarding_->homes.end() ? 0 : it->second.cid;
}

bool Lobby::user_notice(const std::string& payload) {
  auto n = parse_user_notice(payload);
  if (!n) return false;
  if (!remote_feed_) return true;
  if (n->from == node_id()) return true;  // this node told its connections when it sent it
  const auto to =
      n->table_id > 0 ? remote_feed_->followers_of(n->table_id) : presence_.clients_of(n->to);
  // Only a notice told to someone here spends the budget: every notice reaches every node,
  // and those to users connected elsewhere or nowhere (a stranger's invites of offline
  // accounts, one notice each) would otherwise leave none for this node's users.
  if (to.empty()) return true;
  if (!notice_budget_.take()) {
    if (auto count = notice_logs_.due()) {
      spdlog::warn("node {}: too many user notices; one to {} dropped ({} since the last line)",
                   node_id(),
                   n->table_id > 0 ? "table id " + std::to_string(n->table_id) : n->to, *count);
    }
    return true;
  }
  const auto shared = std::make_shared<const RenderedEvent>(std::move(n->event));
  for (const auto& c : to) {
    if (c->by_mail()) continue;
    if (n->skip_cid != 0 && n->skip_node == node_id() && forwarded_cid(c.get()) == n->skip_cid) {
      continue;  // heard it as its command's answer
    }
    try {
      c->send_shared(shared, false);
    } catch (const std::exception& e) {
      spdlog::error("node {}: cannot send a {} notice to {}: {}", node_id(), shared->event().type,
                    c->describe(), e.what());
    }
  }
  return true;
}

}  // namespace plateau::server
