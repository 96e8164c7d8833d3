#pragma once
// The two directions of one relayed socket (legacy_relay.h), on a strand of its own: the
// socket's bytes are read in chunks of at most kRelayChunk, at most LegacyRelay::kBytesPerSecond
// after a burst of kBurstBytes (reading pauses, so the writer feels it), and the other side's
// bytes are written in order, at most kMaxWaitingBytes waiting (more closes the socket).
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <utility>

#include "compat/biloba/legacy_relay.h"

namespace plateau::biloba::net {

inline constexpr std::size_t kRelayChunk = 4096;  // bytes read from a socket at once

namespace relay_detail {

namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;

template <class Socket>
class Pipe : public std::enable_shared_from_this<Pipe<Socket>> {
 public:
  explicit Pipe(Socket socket) : socket_(std::move(socket)), pause_(socket_.get_executor()) {}
  virtual ~Pipe() = default;

  // Queues `bytes` for the socket; closes it when too much waits. On the strand.
  void write(std::string bytes) {
    if (closed_) return;
    waiting_bytes_ += bytes.size();
    if (waiting_bytes_ > LegacyRelay::kMaxWaitingBytes) {
      spdlog::warn("biloba relay: {} bytes wait for a slow reader: closed", waiting_bytes_);
      return close();
    }
    waiting_.push_back(std::move(bytes));
    if (waiting_.size() == 1) write_next();
  }
  // Closes the socket once what waits is written. On the strand.
  void close_after_writes() {
    closing_ = true;
    if (waiting_.empty()) close();
  }
  void close() {
    if (closed_) return;
    closed_ = true;
    boost::system::error_code ec;
    socket_.shutdown(Socket::shutdown_both, ec);
    socket_.close(ec);
    pause_.cancel();
    ended();
  }
  Socket& socket() { return socket_; }
  template <class F>
  void on_strand(F f) {
    asio::post(socket_.get_executor(),
               [self = this->shared_from_this(), f = std::move(f)]() mutable { f(); });
  }

 protected:
  void read_next() {
    if (closed_) return;
    if (tokens_ < 0) {  // over the rate: wait until the bucket is back at zero
      pause_.expires_after(std::chrono::milliseconds(
          static_cast<long>(-tokens_ * 1000 / LegacyRelay::kBytesPerSecond) + 1));
      pause_.async_wait([self = this->shared_from_this()](boost::system::error_code ec) {
        if (ec) return;
        self->refill();
        self->read_next();
      });
      return;
    }
    socket_.async_read_some(
        asio::buffer(buffer_),
        [self = this->shared_from_this()](boost::system::error_code ec, std::size_t n) {
          if (self->closed_) return;
          if (ec) return self->read_end();
          self->refill();
          self->tokens_ -= static_cast<double>(n);
          self->read(std::string(self->buffer_.data(), n));
          self->read_next();
        });
  }
  bool closed() const { return closed_; }

 private:
  virtual void read(std::string bytes) = 0;  // bytes from the socket
  virtual void read_end() = 0;               // the socket's end of file or error
  virtual void ended() = 0;                  // close() ran (once)

  void refill() {
    const auto now = Clock::now();
    tokens_ = std::min(LegacyRelay::kBurstBytes,
                       tokens_ + LegacyRelay::kBytesPerSecond *
                                     std::chrono::duration<double>(now - refilled_).count());
    refilled_ = now;
  }
  void write_next() {
    asio::async_write(socket_, asio::buffer(waiting_.front()),
                      [self = this->shared_from_this()](boost::system::error_code ec, std::size_t) {
                        if (self->closed_) return;
                        if (ec) return self->close();
                        self->waiting_bytes_ -= self->waiting_.front().size();
                        self->waiting_.pop_front();
                        if (!self->waiting_.empty()) return self->write_next();
                        if (self->closing_) self->close();
                      });
  }

  Socket socket_;
  asio::steady_timer pause_;
  std::array<char, kRelayChunk> buffer_{};
  std::deque<std::string> waiting_;
  std::size_t waiting_bytes_ = 0;
  double tokens_ = LegacyRelay::kBurstBytes;
  Clock::time_point refilled_ = Clock::now();
  bool closing_ = false;
  bool closed_ = false;
};

}  // namespace relay_detail

}  // namespace plateau::biloba::net
