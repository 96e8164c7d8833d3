#include "server/ws_session.h"

#include <spdlog/spdlog.h>

#include "server/render.h"
#include "server/ws_message.h"

namespace plateau::server {

namespace beast = boost::beast;
namespace websocket = beast::websocket;

template <class Stream>
BasicWsSession<Stream>::BasicWsSession(Lobby& lobby, Stream stream, SessionLimits limits)
    : Session(lobby, stream.get_executor(), limits), ws_(std::move(stream)) {
  boost::system::error_code ec;
  auto ep = beast::get_lowest_layer(ws_).socket().remote_endpoint(ec);
  peer_ = std::string(kIsTls<Stream> ? "wss " : "ws ") +
          (ec ? std::string("?") : ep.address().to_string() + ":" + std::to_string(ep.port()));
}

template <class Stream>
void BasicWsSession<Stream>::start(beast::http::request<beast::http::string_body> request) {
  beast::get_lowest_layer(ws_).expires_never();
  ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
  ws_.read_message_max(kMaxWsMessage);
  auto req = std::make_shared<beast::http::request<beast::http::string_body>>(std::move(request));
  ws_.async_accept(*req, [self = std::static_pointer_cast<BasicWsSession>(shared_from_this()),
                          req](beast::error_code ec) {
    if (ec) {
      spdlog::info("{}: websocket handshake failed: {}", self->peer_, ec.message());
      return;
    }
    self->open_ = true;
    self->begin();
    self->write_event(Event{"welcome",
                            {{"server", "plateau"},
                             {"text",
                              "Welcome to Plateau. Send commands as text or as "
                              "{\"cmd\": LINE, \"id\": N}."}},
                            {}},
                      -1);
    self->read();
  });
}

template <class Stream>
void BasicWsSession<Stream>::read() {
  ws_.async_read(buffer_, [self = std::static_pointer_cast<BasicWsSession>(shared_from_this())](
                              beast::error_code ec, std::size_t n) { self->on_read(ec, n); });
}

template <class Stream>
void BasicWsSession<Stream>::on_read(beast::error_code ec, std::size_t) {
  if (ec == websocket::error::message_too_big) {
    // The stream is failed after this error: say why, then close.
    spdlog::info("{}: message over {} bytes; closing", peer_, kMaxWsMessage);
    write_event(
        error_event("message too long: at most " + std::to_string(kMaxWsMessage) + " bytes"), -1);
    closing_ = true;
    shutdown();
    ended();
    return;
  }
  if (ec) {
    shut_ = true;
    ended();
    return;
  }
  std::string text = beast::buffers_to_string(buffer_.data());
  buffer_.consume(buffer_.size());
  if (!ws_.got_text()) {
    write_event(error_event("binary messages are not accepted; send text"), -1);
  } else if (!check_utf8(text, -1)) {
    // Checked before the JSON envelope, so that the error names the byte of the message.
  } else {
    WsRequest request = decode_ws_message(std::move(text));
    if (!request.error.empty()) {
      write_event(error_event(request.error), -1);
    } else {
      on_input(std::move(request.line), request.id);
    }
  }
  if (!shut_) read();
}

template <class Stream>
void BasicWsSession<Stream>::write_event(const Event& event, long long re) {
  if (shut_ || !open_) return;
  queue_bytes(std::make_shared<const std::string>(render_json(event, re)));
}

template <class Stream>
void BasicWsSession<Stream>::write_shared(const RenderedEvent& event, long long re) {
  if (shut_ || !open_) return;
  // A reply carries the command's id: only then is the event rendered for this connection.
  queue_bytes(re >= 0 ? std::make_shared<const std::string>(render_json(event.event(), re))
                      : event.json());
}

template <class Stream>
void BasicWsSession<Stream>::queue_bytes(std::shared_ptr<const std::string> text) {
  queued_bytes_ += text->size();
  out_.push_back(std::move(text));
  if (output_over_limit()) return;
  if (!writing_) write_next();
}

template <class Stream>
void BasicWsSession<Stream>::write_next() {
  if (out_.empty()) {
    writing_ = false;
    if (closing_ && !shut_) {
      shut_ = true;
      ws_.async_close(websocket::close_code::normal,
                      [self = std::static_pointer_cast<BasicWsSession>(shared_from_this())](
                          beast::error_code) {});
    }
    return;
  }
  writing_ = true;
  ws_.text(true);
  ws_.async_write(boost::asio::buffer(*out_.front()),
                  [self = std::static_pointer_cast<BasicWsSession>(shared_from_this())](
                      beast::error_code ec, std::size_t) {
                    self->queued_bytes_ -= self->out_.front()->size();
                    self->out_.pop_front();
                    if (ec) {
                      self->out_.clear();
                      self->queued_bytes_ = 0;
                      self->writing_ = false;
                      self->shut_ = true;
                      return;
                    }
                    self->drain_held();
                    self->write_next();
                  });
}

template <class Stream>
void BasicWsSession<Stream>::shutdown() {
  closing_ = true;
  if (queued_bytes_ > limits_.max_output_bytes && !shut_) {
    shut_ = true;
    beast::get_lowest_layer(ws_).close();
    return;
  }
  if (!writing_ && !shut_) write_next();
}

template class BasicWsSession<PlainStream>;
template class BasicWsSession<TlsStream>;

}  // namespace plateau::server
