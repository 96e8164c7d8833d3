#include "server/mail_lmtp.h"

#include <spdlog/spdlog.h>

#include <deque>
#include <optional>

#include "core/text.h"

namespace plateau::server {

namespace {

using boost::asio::ip::tcp;

// Answers queued before process() stops handling pipelined lines until they are sent.
constexpr std::size_t kMaxQueuedBytes = 16 * 1024;

// "MAIL FROM:<a@b> SIZE=12" -> "a@b"; nullopt when the form is wrong.
std::optional<std::string> path_argument(std::string_view rest) {
  rest = trim(rest);
  if (rest.empty() || rest[0] != '<') return std::nullopt;
  const auto gt = rest.find('>');
  if (gt == std::string_view::npos) return std::nullopt;
  return std::string(rest.substr(1, gt - 1));
}

// The value of SIZE=N among MAIL FROM's parameters, or 0.
std::size_t declared_size(std::string_view rest) {
  const auto gt = rest.find('>');
  if (gt == std::string_view::npos) return 0;
  for (auto word : split_ws(rest.substr(gt + 1))) {
    if (to_lower(word.substr(0, 5)) == "size=") {
      std::size_t n = 0;
      for (char c : word.substr(5)) {
        if (c < '0' || c > '9' || n > (std::size_t{1} << 40)) return n;
        n = n * 10 + static_cast<std::size_t>(c - '0');
      }
      return n;
    }
  }
  return 0;
}

class LmtpSession : public std::enable_shared_from_this<LmtpSession> {
 public:
  LmtpSession(tcp::socket socket, ConnectionLimit::Slot slot, const LmtpLimits& limits,
              const std::string& host, const LmtpDeliver& deliver)
      : socket_(std::move(socket)),
        slot_(std::move(slot)),
        timer_(socket_.get_executor()),
        data_timer_(socket_.get_executor()),
        limits_(limits),
        host_(host),
        deliver_(deliver) {}

  void start() {
    write("220 " + host_ + " LMTP Plateau ready\r\n");
    read();
  }

 private:
  enum class Phase { kGreeted, kReady, kMail, kData, kClosed };

  // Armed by every read and every write that starts: a peer silent (or not reading) that long
  // is closed. The 421 goes out only when nothing else waits to be sent; behind a stuck write
  // it would never leave, so the socket is closed at once (review item 1).
  void arm_idle() {
    timer_.expires_after(limits_.idle_timeout);
    timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
      if (ec || self->closed_ || self->busy_) return;
      if (!self->out_.empty()) return self->close();
      self->phase_ = Phase::kClosed;  // no more commands; write() re-arms for the 421 itself
      self->close_after_write_ = true;
      self->write("421 4.4.2 " + self->host_ + " idle for too long; closing\r\n");
    });
  }

  // Reads only when every answer has been sent: a client that pipelines and never reads stops
  // being read once its socket buffers are full, instead of growing out_ without bound.
  void read() {
    if (phase_ == Phase::kClosed || busy_ || reading_ || !out_.empty()) return;
    reading_ = true;
    arm_idle();
    socket_.async_read_some(
        boost::asio::buffer(buf_),
        [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
          self->reading_ = false;
          if (ec) return self->close();
          self->in_.append(self->buf_, n);
          self->process();
        });
  }

  // Handles every complete line in in_ (pipelining), then reads more unless a delivery runs.
  // Stops early when the queued answers pass kMaxQueuedBytes; the rest of in_ is handled once
  // they are sent (write_next).
  void process() {
    while (!busy_ && phase_ != Phase::kClosed && out_bytes_ < kMaxQueuedBytes) {
      const auto nl = in_.find('\n');
      if (nl == std::string::npos) {
        if (phase_ == Phase::kData) {
          // A data line without its end yet: only the message bound limits it.
          if (in_.size() > limits_.max_message_bytes + 2) too_big_ = true, in_.clear();
        } else if (in_.size() > limits_.max_line_bytes) {
          write("500 5.5.2 line too long; closing\r\n");
          close_after_write_ = true;
          return;
        }
        break;
      }
      std::string line = in_.substr(0, nl);
      in_.erase(0, nl + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (phase_ == Phase::kData) {
        data_line(std::move(line));
      } else if (line.size() + 2 > limits_.max_line_bytes) {
        write("500 5.5.2 line too long\r\n");
      } else {
        command(line);
      }
    }
    if (!busy_) read();
  }

  void command(const std::string& line) {
    const std::string verb = to_upper(line.substr(0, line.find(' ')));
    const std::string_view rest = std::string_view(line).substr(std::min(line.size(), verb.size()));
    if (verb == "LHLO") {
      phase_ = Phase::kReady;
      reset();
      write("250-" + host_ +
            "\r\n250-PIPELINING\r\n250-8BITMIME\r\n250-ENHANCEDSTATUSCODES\r\n"
            "250 SIZE " +
            std::to_string(limits_.max_message_bytes) + "\r\n");
    } else if (verb == "QUIT") {
      write("221 2.0.0 bye\r\n");
      close_after_write_ = true;
      phase_ = Phase::kClosed;
    } else if (verb == "NOOP") {
      write("250 2.0.0 ok\r\n");
    } else if (verb == "RSET") {
      reset();
      if (phase_ == Phase::kMail) phase_ = Phase::kReady;
      write("250 2.0.0 ok\r\n");
    } else if (verb == "VRFY") {
      write("252 2.5.0 cannot verify\r\n");
    } else if (phase_ == Phase::kGreeted) {
      write("503 5.5.1 LHLO first\r\n");
    } else if (verb == "MAIL") {
      auto from = to_upper(trim(rest).substr(0, 5)) == "FROM:" ? path_argument(trim(rest).substr(5))
                                                               : std::nullopt;
      if (phase_ != Phase::kReady) return write("503 5.5.1 nested MAIL\r\n");
      if (!from) return write("501 5.5.4 syntax: MAIL FROM:<address>\r\n");
      if (declared_size(rest) > limits_.max_message_bytes)
        return write("552 5.3.4 message too big: at most " +
                     std::to_string(limits_.max_message_bytes) + " bytes\r\n");
      envelope_from_ = *from;
      phase_ = Phase::kMail;
      write("250 2.1.0 ok\r\n");
    } else if (verb == "RCPT") {
      if (phase_ != Phase::kMail) return write("503 5.5.1 MAIL first\r\n");
      auto to = to_upper(trim(rest).substr(0, 3)) == "TO:" ? path_argument(trim(rest).substr(3))
                                                           : std::nullopt;
      if (!to || to->empty()) return write("501 5.5.4 syntax: RCPT TO:<address>\r\n");
      if (recipients_ >= limits_.max_recipients) return write("452 4.5.3 too many recipients\r\n");
      ++recipients_;
      write("250 2.1.5 ok\r\n");
    } else if (verb == "DATA") {
      if (phase_ != Phase::kMail || recipients_ == 0) return write("503 5.5.1 RCPT first\r\n");
      phase_ = Phase::kData;
      message_.clear();
      too_big_ = false;
      arm_data();
      write("354 end with <CRLF>.<CRLF>\r\n");
    } else {
      write("500 5.5.1 unknown command\r\n");
    }
  }

  void data_line(std::string line) {
    if (line == ".") return end_of_data();
    if (too_big_) return;
    if (!line.empty() && line[0] == '.') line.erase(0, 1);  // RFC 5321 §4.5.2
    if (message_.size() + line.size() + 2 > limits_.max_message_bytes) {
      too_big_ = true;
      message_.clear();
      message_.shrink_to_fit();
      return;
    }
    message_ += line;
    message_ += "\r\n";
  }

  // A DATA transaction has data_timeout in all: trickling a byte now and then keeps the idle
  // timer quiet but not this one.
  void arm_data() {
    data_timer_.expires_after(limits_.data_timeout);
    data_timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
      if (ec || self->closed_ || self->phase_ != Phase::kData) return;
      self->phase_ = Phase::kClosed;
      self->message_.clear();
      self->in_.clear();
      self->close_after_write_ = true;
      if (!self->out_.empty()) return self->close();
      self->write("421 4.4.2 " + self->host_ + " DATA took too long; closing\r\n");
    });
  }

  void end_of_data() {
    data_timer_.cancel();
    const std::size_t n = recipients_;
    phase_ = Phase::kReady;
    if (too_big_) {
      answer_all(n, {552, "5.3.4 message too big: at most " +
                              std::to_string(limits_.max_message_bytes) + " bytes"});
      reset();
      return;
    }
    busy_ = true;
    timer_.cancel();
    auto self = shared_from_this();
    auto done = [self, n](LmtpReply reply) {
      boost::asio::post(self->socket_.get_executor(), [self, n, reply = std::move(reply)] {
        self->busy_ = false;
        self->answer_all(n, reply);
        self->reset();
        self->process();
      });
    };
    try {
      deliver_(std::exchange(message_, {}), envelope_from_, done);
    } catch (const std::exception& e) {
      spdlog::error("lmtp: delivery failed: {}", e.what());
      done({451, "4.3.0 internal error; try again later"});
    }
  }

  void answer_all(std::size_t n, const LmtpReply& reply) {
    std::string text = std::to_string(reply.code) + " " + reply.text + "\r\n";
    std::string all;
    for (std::size_t i = 0; i < n; ++i) all += text;
    write(all);
  }

  void reset() {
    envelope_from_.clear();
    recipients_ = 0;
    message_.clear();
    too_big_ = false;
  }

  void write(std::string text) {
    if (closed_) return;
    out_bytes_ += text.size();
    out_.push_back(std::move(text));
    if (out_.size() == 1) {
      if (!busy_) arm_idle();
      write_next();
    }
  }

  void write_next() {
    boost::asio::async_write(
        socket_, boost::asio::buffer(out_.front()),
        [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
          if (self->closed_) return;
          self->out_bytes_ -= self->out_.front().size();
          self->out_.pop_front();
          if (ec) return self->close();
          if (!self->out_.empty()) return self->write_next();
          if (self->close_after_write_) return self->close();
          self->process();  // the lines left in in_, then the next read
        });
  }

  void close() {
    if (closed_) return;
    closed_ = true;
    phase_ = Phase::kClosed;
    timer_.cancel();
    data_timer_.cancel();
    in_.clear();  // out_ stays: a pending async_write may still point into it
    boost::system::error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
  }

  tcp::socket socket_;
  ConnectionLimit::Slot slot_;
  boost::asio::steady_timer timer_;
  boost::asio::steady_timer data_timer_;
  const LmtpLimits limits_;
  const std::string host_;
  const LmtpDeliver deliver_;
  char buf_[8192];
  std::string in_;
  std::deque<std::string> out_;
  std::size_t out_bytes_ = 0;  // the bytes in out_
  Phase phase_ = Phase::kGreeted;
  std::string envelope_from_;
  std::size_t recipients_ = 0;
  std::string message_;
  bool too_big_ = false;
  bool busy_ = false;
  bool close_after_write_ = false;
  bool closed_ = false;
  bool reading_ = false;  // an async_read_some is pending
};

}  // namespace

LmtpListener::LmtpListener(boost::asio::io_context& io, const tcp::endpoint& endpoint,
                           std::shared_ptr<ConnectionLimit> connections, LmtpLimits limits,
                           std::string host_name, LmtpDeliver deliver)
    : io_(io),
      acceptor_(io),
      retry_(io),
      connections_(std::move(connections)),
      limits_(limits),
      host_(std::move(host_name)),
      deliver_(std::move(deliver)) {
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(boost::asio::socket_base::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen(boost::asio::socket_base::max_listen_connections);
  spdlog::info("listening: lmtp on {}:{}", endpoint.address().to_string(), port());
}

std::uint16_t LmtpListener::port() const {
  boost::system::error_code ec;
  return acceptor_.local_endpoint(ec).port();
}

void LmtpListener::start() { accept(); }

void LmtpListener::stop() {
  boost::asio::post(acceptor_.get_executor(), [self = shared_from_this()] {
    self->stopped_ = true;
    self->retry_.cancel();
    boost::system::error_code ignored;
    self->acceptor_.close(ignored);
  });
}

void LmtpListener::accept() {
  acceptor_.async_accept(
      boost::asio::make_strand(io_),
      [self = shared_from_this()](boost::system::error_code ec, tcp::socket socket) {
        if (ec == boost::asio::error::operation_aborted || self->stopped_) return;
        if (ec) {
          // Out of descriptors (or another accept failure): wait instead of spinning on it.
          if (auto n = self->failures_.due()) {
            spdlog::warn("lmtp: accept failed: {} ({} since the last report)", ec.message(), *n);
          }
          self->retry_.expires_after(std::chrono::milliseconds(100));
          self->retry_.async_wait([self](boost::system::error_code wait_ec) {
            if (!wait_ec && !self->stopped_) self->accept();
          });
          return;
        }
        {
          boost::system::error_code e2;
          const auto peer = socket.remote_endpoint(e2);
          ConnectionLimit::Refusal why = ConnectionLimit::Refusal::kNone;
          auto slot = e2 ? nullptr : self->connections_->admit(peer.address().to_string(), &why);
          if (!slot) {
            const std::string text = std::string("421 4.7.0 ") + refusal_text(why) + "\r\n";
            socket.non_blocking(true, e2);
            socket.write_some(boost::asio::buffer(text), e2);
            socket.close(e2);
          } else {
            std::make_shared<LmtpSession>(std::move(socket), std::move(slot), self->limits_,
                                          self->host_, self->deliver_)
                ->start();
          }
        }
        self->accept();
      });
}

}  // namespace plateau::server
