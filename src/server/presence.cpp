#include "server/presence.h"

#include <algorithm>

#include "core/text.h"

namespace plateau::server {

void Presence::connected() {
  std::lock_guard lock(mutex_);
  ++connections_;
}

void Presence::disconnected() {
  std::lock_guard lock(mutex_);
  --connections_;
}

std::size_t Presence::connections() const {
  std::lock_guard lock(mutex_);
  return connections_;
}

std::string Presence::go_offline_locked(const std::shared_ptr<Client>& client) {
  if (client->user.empty()) return "";
  auto it = online_.find(to_lower(client->user));
  if (it == online_.end()) return "";
  auto& clients = it->second.clients;
  clients.erase(std::remove_if(clients.begin(), clients.end(),
                               [&](const auto& w) {
                                 auto c = w.lock();
                                 return !c || c == client;
                               }),
                clients.end());
  if (!clients.empty()) return "";
  online_.erase(it);
  return client->guest ? client->user : "";
}

std::string Presence::go_offline(const std::shared_ptr<Client>& client) {
  std::lock_guard lock(mutex_);
  return go_offline_locked(client);
}

std::string Presence::set_user(const std::shared_ptr<Client>& client, const std::string& user,
                               bool guest) {
  std::lock_guard lock(mutex_);
  std::string guest_gone = go_offline_locked(client);
  client->user = user;
  client->guest = guest;
  if (!user.empty()) {
    Online& entry = online_[to_lower(user)];
    entry.name = user;
    entry.clients.push_back(client);
  }
  return guest_gone;
}

std::vector<std::shared_ptr<Client>> Presence::clients_of(const std::string& user) const {
  std::vector<std::shared_ptr<Client>> out;
  std::lock_guard lock(mutex_);
  auto it = online_.find(to_lower(user));
  if (it == online_.end()) return out;
  for (const auto& w : it->second.clients) {
    if (auto c = w.lock()) out.push_back(c);
  }
  return out;
}

std::string Presence::online_name(const std::string& name) const {
  std::lock_guard lock(mutex_);
  auto it = online_.find(to_lower(name));
  return it == online_.end() ? std::string() : it->second.name;
}

std::vector<std::string> Presence::names() const {
  std::vector<std::string> names;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [key, entry] : online_) {
      if (std::any_of(entry.clients.begin(), entry.clients.end(),
                      [](const auto& w) { return !w.expired(); })) {
        names.push_back(entry.name);
      }
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace plateau::server
