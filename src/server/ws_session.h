#pragma once
// The WebSocket transport (path /ws on the HTTP port): each text message is one command, either
// the command line itself or JSON {"cmd": "LINE", "id": N}; every event comes back as one JSON
// message (render_json), replies carrying "re": N. Messages are limited to kMaxWsMessage bytes.
// One template over the byte stream (streams.h): WsSession is ws://, WssSession is wss://.
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <string>

#include "server/asio.h"
#include "server/session.h"
#include "server/streams.h"

namespace plateau::server {

inline constexpr std::size_t kMaxWsMessage = 64 * 1024;

template <class Stream>
class BasicWsSession : public Session {
 public:
  // `stream` carries the upgrade request (for TLS, already handshaken).
  BasicWsSession(Lobby& lobby, Stream stream, SessionLimits limits);
  // Completes the upgrade of `request` and starts reading.
  void start(boost::beast::http::request<boost::beast::http::string_body> request);
  std::string describe() const override { return peer_; }

 private:
  void read();
  void on_read(boost::beast::error_code ec, std::size_t n);
  void write_event(const Event& event, long long re) override;
  void write_shared(const RenderedEvent& event, long long re) override;
  void queue_bytes(std::shared_ptr<const std::string> text);
  void shutdown() override;
  std::size_t pending_output() const override { return queued_bytes_; }
  std::size_t shared_size(const RenderedEvent& event) const override {
    return event.json()->size();
  }
  void write_next();

  boost::beast::websocket::stream<Stream> ws_;
  std::string peer_;
  boost::beast::flat_buffer buffer_;
  std::deque<std::shared_ptr<const std::string>> out_;
  std::size_t queued_bytes_ = 0;
  bool writing_ = false;
  bool open_ = false;
  bool shut_ = false;
};

using WsSession = BasicWsSession<PlainStream>;
using WssSession = BasicWsSession<TlsStream>;

extern template class BasicWsSession<PlainStream>;
extern template class BasicWsSession<TlsStream>;

}  // namespace plateau::server
