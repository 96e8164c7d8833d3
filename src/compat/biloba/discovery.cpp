#include "compat/biloba/discovery.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <system_error>

namespace plateau::biloba::net {

namespace {

[[noreturn]] void fail(const char* what) {
  throw std::system_error(errno, std::generic_category(), what);
}

}  // namespace

std::string announcement(std::int32_t magic) {
  char buf[kAnnouncementSize + 1];
  std::snprintf(buf, sizeof buf, "Biloba%32d", static_cast<int>(magic));
  return std::string(buf, kAnnouncementSize - 1) + std::string(1, '\0');
}

bool is_announcement(const std::string& datagram) {
  return datagram.size() == kAnnouncementSize && datagram.compare(0, 6, "Biloba") == 0;
}

Announcer::Announcer(std::int32_t magic, std::string target, unsigned short port,
                     std::chrono::milliseconds interval)
    : datagram_(announcement(magic)) {
  fd_ = ::socket(AF_INET, SOCK_DGRAM, 0);
  if (fd_ < 0) fail("UDP socket");
  int on = 1;
  ::setsockopt(fd_, SOL_SOCKET, SO_BROADCAST, &on, sizeof on);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(port);
  if (::inet_pton(AF_INET, target.c_str(), &to.sin_addr) != 1) {
    ::close(fd_);
    throw std::system_error(EINVAL, std::generic_category(), "bad discovery address " + target);
  }
  thread_ = std::thread([this, to, interval]() {
    while (!stop_) {
      // A failed broadcast (no route, for example) is not fatal: the original only logs it.
      ::sendto(fd_, datagram_.data(), datagram_.size(), 0, reinterpret_cast<const sockaddr*>(&to),
               sizeof to);
      for (auto slept = std::chrono::milliseconds(0); slept < interval && !stop_;
           slept += std::chrono::milliseconds(20)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
  });
}

Announcer::~Announcer() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  if (fd_ >= 0) ::close(fd_);
}

std::vector<DiscoveredServer> scan_servers(std::chrono::milliseconds listen_for,
                                           unsigned short port, const std::string& own) {
  const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  if (fd < 0) fail("UDP socket");
  int on = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof on);
  ::setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &on, sizeof on);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_ANY);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0) {
    const int e = errno;
    ::close(fd);
    throw std::system_error(e, std::generic_category(), "bind UDP " + std::to_string(port));
  }
  std::vector<DiscoveredServer> found;
  const auto end = std::chrono::steady_clock::now() + listen_for;
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        end - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    char buf[512];
    sockaddr_in from{};
    socklen_t from_len = sizeof from;
    const ssize_t n =
        ::recvfrom(fd, buf, sizeof buf, 0, reinterpret_cast<sockaddr*>(&from), &from_len);
    if (n <= 0) continue;
    const std::string datagram(buf, static_cast<std::size_t>(n));
    if (!is_announcement(datagram) || datagram == own) continue;
    char ip[INET_ADDRSTRLEN] = {};
    ::inet_ntop(AF_INET, &from.sin_addr, ip, sizeof ip);
    if (std::string(ip) == "0.0.0.0") continue;
    char host[NI_MAXHOST] = {};
    if (::getnameinfo(reinterpret_cast<sockaddr*>(&from), from_len, host, sizeof host, nullptr, 0,
                      NI_NAMEREQD) != 0) {
      continue;  // no DNS or hosts name: the original ignores such senders
    }
    bool known = false;
    for (const auto& s : found) known = known || s.address == ip;
    if (!known) found.push_back({host, ip});
  }
  ::close(fd);
  return found;
}

}  // namespace plateau::biloba::net
