#pragma once
// What the text and WebSocket sessions share: commands run one at a time in arrival order,
// a per-connection rate limit (token bucket), a bound on queued input and output (in bytes:
// SessionLimits::max_output_bytes), an idle timeout, a login timeout (a client that has not
// registered, logged in or become a guest within SessionLimits::login_timeout is closed), and
// the one UTF-8 check of every command line (docs/SECURITY.md: text is validated at the edge). Each
// session lives on its own strand; send() and close() may be called from any thread and hop onto
// it.
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>

#include "server/asio.h"
#include "server/client.h"
#include "server/limits.h"

namespace plateau::server {

class Lobby;

class Session : public Client {
 public:
  void send(const Event& event, bool reply) override;
  void send_shared(std::shared_ptr<const RenderedEvent> event, bool reply) override;
  // Paced replay (resync): `events` wait in the session and go to the transport's output queue
  // only while it holds less than half of max_output_bytes, as it drains; anything sent after
  // them (live events, the command's answer) waits behind them, so the order is kept. A replayed
  // event counts against max_output_bytes only for its place in the queue (kHeldReplayCost: its
  // bytes are the table log's), what waits behind them in full; over the bound the connection is
  // closed as a slow reader. A connection that closes drops what still waits.
  void send_replayed(std::vector<std::shared_ptr<const RenderedEvent>> events) override;
  void close() override;
  // Keeps `slot` (the connection's place in the ConnectionLimit) until the session ends.
  void hold(std::shared_ptr<const void> slot) { slot_ = std::move(slot); }
  void on_strand(std::function<void()> fn) override;

 protected:
  Session(Lobby& lobby, boost::asio::any_io_executor strand, SessionLimits limits);
  // Called once the transport is ready (on the strand).
  void begin();
  // One command line from the client (on the strand). `id` is the WebSocket command id (-1).
  // A line that is not well-formed UTF-8 is answered "error: invalid UTF-8 at byte N; line
  // ignored" and goes no further.
  void on_input(std::string line, long long id = -1);
  // The UTF-8 check of on_input(), for a transport that must look inside a message before
  // (the WebSocket JSON envelope): false, after the error reply, when `text` is not UTF-8.
  bool check_utf8(std::string_view text, long long id);
  // True when the output the transport holds is over max_output_bytes: then the session is
  // closed at once (its output dropped), and the caller should stop writing.
  bool output_over_limit();
  // Transport: encode and queue one event (on the strand).
  virtual void write_event(const Event& event, long long re) = 0;
  // Queues a shared event's bytes (its family's rendering, made once for every recipient).
  virtual void write_shared(const RenderedEvent& event, long long re) = 0;
  // Bytes of `event` in this transport's family (its shared rendering), for the output bound.
  virtual std::size_t shared_size(const RenderedEvent& event) const = 0;
  // Call from the transport each time a write completed (on the strand): moves held events
  // (send_replayed) to the output queue while it is below half of max_output_bytes.
  void drain_held();
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
  struct Held {
    std::shared_ptr<const RenderedEvent> event;
    long long re;
    bool replayed;  // a resync's event (counted in held_bytes_ as kHeldReplayCost)
  };
  // What a held replayed event costs this connection: its place in held_ (the event's bytes are
  // shared with the table's log). Counted against max_output_bytes, so that a client sending
  // resync after resync without reading cannot grow held_ without bound.
  static constexpr std::size_t kHeldReplayCost = 64;
  // Queues `event` behind the held ones (on the strand).
  void hold(std::shared_ptr<const RenderedEvent> event, long long re, bool replayed);
  void pump();
  void arm_idle();
  void arm_login(std::chrono::steady_clock::duration after);
  bool take_token();

  boost::asio::steady_timer idle_;
  boost::asio::steady_timer login_;
  std::shared_ptr<const void> slot_;
  std::deque<Line> pending_;
  bool running_ = false;
  long long current_id_ = -1;
  double tokens_;
  std::chrono::steady_clock::time_point last_refill_;
  bool ended_ = false;
  std::deque<Held> held_;       // events waiting for the output queue to drain
  std::size_t held_bytes_ = 0;  // bytes of the held events (replayed ones: kHeldReplayCost)
};

}  // namespace plateau::server
