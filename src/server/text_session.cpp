#include "server/text_session.h"

#include <spdlog/spdlog.h>

#include "server/command.h"
#include "server/render.h"

namespace plateau::server {

TextSession::TextSession(Lobby& lobby, boost::asio::ip::tcp::socket socket, SessionLimits limits)
    : Session(lobby, socket.get_executor(), limits),
      socket_(std::move(socket)),
      partial_timer_(strand_) {
  boost::system::error_code ec;
  auto ep = socket_.remote_endpoint(ec);
  peer_ = "text " +
          (ec ? std::string("?") : ep.address().to_string() + ":" + std::to_string(ep.port()));
}

void TextSession::start() {
  boost::asio::dispatch(
      strand_, [self = std::static_pointer_cast<TextSession>(shared_from_this())] {
        self->begin();
        self->write_event(Event{"welcome",
                                {{"server", "plateau"},
                                 {"text",
                                  "Welcome to Plateau. Type help for the commands; "
                                  "register NAME PASSWORD, login NAME PASSWORD or guest."}},
                                {}},
                          -1);
        self->read();
      });
}

void TextSession::read() {
  socket_.async_read_some(
      boost::asio::buffer(buffer_),
      [self = std::static_pointer_cast<TextSession>(shared_from_this())](
          boost::system::error_code ec, std::size_t n) { self->on_read(ec, n); });
}

void TextSession::on_read(boost::system::error_code ec, std::size_t n) {
  if (ec) {
    shut_ = true;
    partial_timer_.cancel();
    boost::system::error_code ignored;
    socket_.close(ignored);
    ended();
    return;
  }
  std::string_view chunk(buffer_, n);
  while (!chunk.empty()) {
    const std::size_t nl = chunk.find('\n');
    const std::string_view piece = chunk.substr(0, nl);
    if (!discarding_) {
      if (partial_.size() + piece.size() > kMaxLineBytes + 1) {  // +1: a trailing '\r'
        write_event(error_event("line too long: at most " + std::to_string(kMaxLineBytes) +
                                " bytes; line ignored"),
                    -1);
        partial_.clear();
        discarding_ = true;
      } else {
        partial_.append(piece);
      }
    }
    if (nl == std::string_view::npos) break;
    if (!discarding_) on_input(std::move(partial_));
    partial_.clear();
    discarding_ = false;
    chunk.remove_prefix(nl + 1);
  }
  watch_partial_line();
  if (!shut_) read();
}

void TextSession::watch_partial_line() {
  const bool unfinished = !partial_.empty() || discarding_;
  if (!unfinished) {
    if (partial_armed_) {
      partial_armed_ = false;
      ++partial_epoch_;
      partial_timer_.cancel();
    }
    return;
  }
  if (partial_armed_ || closing_) return;  // the clock runs from the line's first byte
  partial_armed_ = true;
  const std::uint64_t epoch = ++partial_epoch_;
  partial_timer_.expires_after(limits_.partial_line_timeout);
  partial_timer_.async_wait([self = std::static_pointer_cast<TextSession>(shared_from_this()),
                             epoch](boost::system::error_code ec) {
    if (ec || epoch != self->partial_epoch_ || self->closing_) return;
    spdlog::info("{}: line unfinished for {} s; closing", self->describe(),
                 self->limits_.partial_line_timeout.count());
    self->write_event(error_event("line not finished within " +
                                  std::to_string(self->limits_.partial_line_timeout.count()) +
                                  " s; closing the connection"),
                      -1);
    self->closing_ = true;
    self->shutdown();
  });
}

void TextSession::write_event(const Event& event, long long) {
  if (shut_) return;
  queue_bytes(std::make_shared<const std::string>(render_text(event)));
}

void TextSession::write_shared(const RenderedEvent& event, long long) {
  if (shut_) return;
  queue_bytes(event.text());  // the same bytes for every text connection
}

void TextSession::queue_bytes(std::shared_ptr<const std::string> text) {
  if (text->empty()) return;
  queued_bytes_ += text->size();
  out_.push_back(std::move(text));
  if (output_over_limit()) return;
  if (!writing_) write_next();
}

void TextSession::write_next() {
  if (out_.empty()) {
    writing_ = false;
    if (closing_ && !shut_) {
      shut_ = true;
      boost::system::error_code ignored;
      socket_.shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
      socket_.close(ignored);
    }
    return;
  }
  writing_ = true;
  boost::asio::async_write(socket_, boost::asio::buffer(*out_.front()),
                           [self = std::static_pointer_cast<TextSession>(shared_from_this())](
                               boost::system::error_code ec, std::size_t) {
                             self->queued_bytes_ -= self->out_.front()->size();
                             self->out_.pop_front();
                             if (ec) {
                               self->out_.clear();
                               self->queued_bytes_ = 0;
                               self->writing_ = false;
                               self->shut_ = true;
                               boost::system::error_code ignored;
                               self->socket_.close(ignored);
                               return;
                             }
                             self->drain_held();
                             self->write_next();
                           });
}

void TextSession::shutdown() {
  closing_ = true;
  partial_armed_ = false;
  ++partial_epoch_;
  partial_timer_.cancel();
  if (queued_bytes_ > limits_.max_output_bytes && !shut_) {
    // A client that does not read: drop its output instead of waiting for it.
    shut_ = true;
    boost::system::error_code ignored;
    socket_.close(ignored);
    return;
  }
  if (!writing_ && !shut_) write_next();
}

}  // namespace plateau::server
