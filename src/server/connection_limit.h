#pragma once
// Counts the open connections of every port (text, HTTP/WebSocket, biloba 0.9.3) per remote
// address and in all, so that one address, or everyone together, cannot exhaust the server's
// descriptors (issue 12, item 6; SessionLimits::max_connections_per_address, max_connections).
// A connection is admitted at accept and counted until its Slot is destroyed.
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace plateau::server {

class ConnectionLimit : public std::enable_shared_from_this<ConnectionLimit> {
 public:
  // Why admit() refused.
  enum class Refusal { kNone, kPerAddress, kTotal };
  // A counted connection: keep it as long as the connection is open (the destructor gives the
  // place back). Opaque; may be released on any thread.
  using Slot = std::shared_ptr<const void>;

  // `per_address` and `total`: the most connections open at once from one address and in all.
  ConnectionLimit(std::size_t per_address, std::size_t total);

  // Counts a new connection from `address` (its text form, e.g. "127.0.0.1"). Returns its Slot,
  // or nullptr when a limit is reached (then `why`, if given, says which). Thread-safe.
  Slot admit(const std::string& address, Refusal* why = nullptr);

  // Connections open now, from `address` and in all. Thread-safe.
  std::size_t open_from(const std::string& address) const;
  std::size_t open_total() const;

 private:
  void release(const std::string& address);

  const std::size_t per_address_;
  const std::size_t total_limit_;
  mutable std::mutex mutex_;
  std::map<std::string, std::size_t> by_address_;
  std::size_t total_ = 0;
};

// The refusal line a transport that can speak may send before it closes ("too many
// connections from your address" / "too many connections; try again later").
const char* refusal_text(ConnectionLimit::Refusal why);

}  // namespace plateau::server
