#pragma once
// Presence (issue 13, item 3): who is online, under the name they logged in with, and on which
// connections; and how many connections are open. Entries hold weak pointers: a connection that
// is gone never keeps its client alive. Thread-safe.
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "server/client.h"

namespace plateau::server {

class Presence {
 public:
  void connected();
  void disconnected();
  std::size_t connections() const;

  // Makes `client` (on its strand) `user` (a guest if `guest`), or nobody for "": it leaves
  // the online list under its old name first. Returns the old name if that was a guest's last
  // connection (the caller lets the guest's tables go), else "".
  std::string set_user(const std::shared_ptr<Client>& client, const std::string& user, bool guest);
  // Takes `client` off the online list (its identity stays, for the log). Same result as above.
  std::string go_offline(const std::shared_ptr<Client>& client);

  // Open connections of `user` (any case).
  std::vector<std::shared_ptr<Client>> clients_of(const std::string& user) const;
  // The name as logged in of the online user `name` (any case), or "" if not online.
  std::string online_name(const std::string& name) const;
  bool online(const std::string& name) const { return !online_name(name).empty(); }
  // The names online with at least one live connection, sorted.
  std::vector<std::string> names() const;

 private:
  struct Online {
    std::string name;
    std::vector<std::weak_ptr<Client>> clients;
  };
  std::string go_offline_locked(const std::shared_ptr<Client>& client);

  mutable std::mutex mutex_;
  std::map<std::string, Online> online_;  // lower-case name
  std::size_t connections_ = 0;
};

}  // namespace plateau::server
