#pragma once
// What the text and WebSocket sessions share: commands run one at a time in arrival order,
// a per-connection rate limit (token bucket), a bound on queued input and output, and an idle
// timeout. Each session lives on its own strand; send() and close() may be called from any
// thread and hop onto it.
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>

#include "server/asio.h"
#include "server/client.h"
#include "server/limits.h"

namespace plateau::server {

class Lobby;

class Session : public Client {
 public:
  void send(const Event& event, bool reply) override;
  void close() override;
  void on_strand(std::function<void()> fn) override;

 protected:
  Session(Lobby& lobby, boost::asio::any_io_executor strand, SessionLimits limits);
  // Called once the transport is ready (on the strand).
  void begin();
  // One command line from the client (on the strand). `id` is the WebSocket command id (-1).
  void on_input(std::string line, long long id = -1);
  // Transport: encode and queue one event (on the strand).
  virtual void write_event(const Event& event, long long re) = 0;
  // Transport: close the connection (on the strand; may be called more than once).
  virtual void shutdown() = 0;
  // Bytes queued for output by the transport.
  virtual std::size_t pending_output() const = 0;
  // Call from the transport when the connection is gone (on the strand).
  void ended();

  Lobby& lobby_;
  boost::asio::any_io_executor strand_;
  SessionLimits limits_;
  bool closing_ = false;

 private:
  struct Line {
    std::string text;
    long long id;
  };
  void pump();
  void arm_idle();
  bool take_token();

  boost::asio::steady_timer idle_;
  std::deque<Line> pending_;
  bool running_ = false;
  long long current_id_ = -1;
  double tokens_;
  std::chrono::steady_clock::time_point last_refill_;
  bool ended_ = false;
};

}  // namespace plateau::server
