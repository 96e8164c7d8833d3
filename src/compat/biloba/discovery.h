#pragma once
// LAN discovery of biloba 0.9.3 (specs/biloba.md §12): a server announces itself with a
// 39-byte UDP datagram to 255.255.255.255:8001 about every second: "Biloba", a random magic
// number right-aligned in 32 characters, NUL. Clients listen on UDP 8001, keep datagrams of
// exactly 39 bytes that start with "Biloba" and are not their own, and list the senders by
// host name (senders without a name are ignored, as the original does).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace plateau::biloba::net {

inline constexpr unsigned short kDiscoveryPort = 8001;
inline constexpr std::size_t kAnnouncementSize = 39;

// The datagram for `magic` (39 bytes).
std::string announcement(std::int32_t magic);
// True for a 39-byte datagram starting with "Biloba".
bool is_announcement(const std::string& datagram);

// Sends the announcement every `interval` from a thread of its own until destroyed.
class Announcer {
 public:
  // `target` is where datagrams go (broadcast by default; tests use 127.0.0.1 and a port of
  // their own). Throws std::system_error when the socket cannot be made.
  Announcer(std::int32_t magic, std::string target = "255.255.255.255",
            unsigned short port = kDiscoveryPort,
            std::chrono::milliseconds interval = std::chrono::milliseconds(1000));
  ~Announcer();
  const std::string& datagram() const { return datagram_; }

 private:
  std::string datagram_;
  int fd_ = -1;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

struct DiscoveredServer {
  std::string host;     // the reverse-resolved name (what the client connects to)
  std::string address;  // the sender's IPv4 address
};

// Listens on UDP `port` (address reuse and broadcast on) for `listen_for` and returns the
// distinct servers heard, ignoring `own` (our own announcement) and senders with no host name
// or "0.0.0.0". Throws std::system_error when the port cannot be bound.
std::vector<DiscoveredServer> scan_servers(std::chrono::milliseconds listen_for,
                                           unsigned short port = kDiscoveryPort,
                                           const std::string& own = {});

}  // namespace plateau::biloba::net
