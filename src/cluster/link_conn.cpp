// One node link connection (link_conn.h): handshake, frames, output queue.
#include "cluster/link_conn.h"

#include <spdlog/spdlog.h>

#include <mutex>

#include "cluster/cluster_db.h"

namespace plateau::cluster {

namespace asio = boost::asio;
using asio::ip::tcp;
using nlohmann::json;

namespace {

// Refused handshakes are logged at most once a second, with how many there were, so that a
// stranger knocking on the port cannot flood the log.
class RefusalLog {
 public:
  void note(const std::string& who, const std::string& why) {
    std::lock_guard lock(mutex_);
    ++count_;
    const auto now = std::chrono::steady_clock::now();
    if (written_ && now - last_ < std::chrono::seconds(1)) return;
    written_ = true;
    last_ = now;
    spdlog::warn("node link: refused {}: {} ({} refusal{} since the last line)", who, why, count_,
                 count_ == 1 ? "" : "s");
    count_ = 0;
  }

 private:
  std::mutex mutex_;
  bool written_ = false;
  std::chrono::steady_clock::time_point last_;
  std::size_t count_ = 0;
};

RefusalLog& refusals() {
  static RefusalLog log;
  return log;
}

std::string text_field(const json& j, const char* name, std::size_t max) {
  auto it = j.find(name);
  if (it == j.end() || !it->is_string()) throw std::runtime_error(std::string("no ") + name);
  const std::string& s = it->get_ref<const std::string&>();
  if (s.size() > max) throw std::runtime_error(std::string(name) + " too long");
  return s;
}

}  // namespace

LinkConn::LinkConn(tcp::socket socket, Role role, const LinkOptions& options,
                   std::string expected_peer, Handlers handlers)
    : strand_(asio::make_strand(socket.get_executor())),
      socket_(std::move(socket)),
      timer_(strand_),
      role_(role),
      options_(options),
      peer_(std::move(expected_peer)),
      handlers_(std::move(handlers)) {
  boost::system::error_code ec;
  // Small frames, each waited for: Nagle's algorithm would hold them back by up to 40 ms.
  socket_.set_option(tcp::no_delay(true), ec);
  auto ep = socket_.remote_endpoint(ec);
  where_ = ec ? "?" : ep.address().to_string() + ":" + std::to_string(ep.port());
}

void LinkConn::start() {
  asio::dispatch(strand_, [self = shared_from_this()] {
    self->timer_.expires_after(self->options_.handshake_timeout);
    self->timer_.async_wait([self](boost::system::error_code ec) {
      if (!ec && self->state_ != State::kOpen) self->fail("no handshake within the time-out");
    });
    if (self->role_ == Role::kServer) {
      self->server_nonce_ = new_nonce();
      self->write_plain(json{{"t", "hello"},
                             {"v", 1},
                             {"node", self->options_.self_id},
                             {"nonce", to_hex(self->server_nonce_)}});
      self->state_ = State::kAuth;
    } else {
      self->state_ = State::kHello;
    }
    self->read_header();
  });
}

void LinkConn::send(json frame) {
  asio::post(strand_, [self = shared_from_this(), frame = std::move(frame)] {
    if (self->state_ != State::kOpen) return;
    const std::string payload = frame.dump();
    const LinkMac mac = frame_mac(self->out_key_, self->out_counter_++, payload);
    std::string bytes(reinterpret_cast<const char*>(mac.data()), mac.size());
    bytes += payload;
    self->write(std::move(bytes));
  });
}

void LinkConn::close(std::string why) {
  asio::post(strand_, [self = shared_from_this(), why = std::move(why)] { self->end(why); });
}

void LinkConn::fail(const std::string& why) {
  if (state_ == State::kClosed) return;
  if (state_ != State::kOpen && role_ == Role::kServer) refusals().note(where_, why);
  end(why);
}

void LinkConn::end(const std::string& why) {
  if (state_ == State::kClosed) return;
  state_ = State::kClosed;
  timer_.cancel();
  boost::system::error_code ec;
  socket_.shutdown(tcp::socket::shutdown_both, ec);
  socket_.close(ec);
  queue_.clear();
  auto h = std::exchange(handlers_, {});
  if (h.closed) h.closed(shared_from_this(), why);
}

void LinkConn::read_header() {
  asio::async_read(
      socket_, asio::buffer(header_),
      asio::bind_executor(
          strand_, [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
            if (ec) return self->fail(ec == asio::error::eof ? "closed by the peer" : ec.message());
            const std::size_t n = frame_length(self->header_);
            const std::size_t min = self->state_ == State::kOpen ? kLinkMacBytes + 2 : 2;
            if (n > kMaxLinkFrame)
              return self->fail("a frame of " + std::to_string(n) + " bytes (over 1 MiB)");
            if (n < min) return self->fail("a frame too short");
            self->body_.resize(n);
            self->read_body();
          }));
}

void LinkConn::read_body() {
  asio::async_read(socket_, asio::buffer(body_),
                   asio::bind_executor(strand_, [self = shared_from_this()](
                                                    boost::system::error_code ec, std::size_t) {
                     if (ec) return self->fail(ec.message());
                     try {
                       self->on_frame();
                     } catch (const std::exception& e) {
                       return self->fail(std::string("malformed frame: ") + e.what());
                     }
                     if (self->state_ != State::kClosed) self->read_header();
                   }));
}

void LinkConn::on_frame() {
  if (state_ == State::kOpen) {
    LinkMac mac;
    std::copy_n(reinterpret_cast<const unsigned char*>(body_.data()), mac.size(), mac.begin());
    const std::string_view payload(body_.data() + kLinkMacBytes, body_.size() - kLinkMacBytes);
    if (!same_mac(mac, frame_mac(in_key_, in_counter_++, payload))) {
      throw std::runtime_error("a frame whose MAC is wrong");
    }
    json frame = json::parse(payload);
    if (!frame.is_object() || !frame.contains("t") || !frame["t"].is_string()) {
      throw std::runtime_error("a frame without a type");
    }
    if (handlers_.frame) handlers_.frame(shared_from_this(), std::move(frame));
    return;
  }
  const json frame = json::parse(body_);
  if (!frame.is_object()) throw std::runtime_error("not an object");
  const std::string type = text_field(frame, "t", 16);
  if (state_ == State::kHello && type == "hello") {
    if (!frame.contains("v") || frame["v"] != 1) throw std::runtime_error("another version");
    const std::string node = text_field(frame, "node", 64);
    if (node != peer_) throw std::runtime_error("node " + node + " answered, not " + peer_);
    if (!from_hex(text_field(frame, "nonce", 64), server_nonce_)) {
      throw std::runtime_error("a bad nonce");
    }
    client_nonce_ = new_nonce();
    const LinkMac mac = handshake_mac(options_.key, "client", server_nonce_, client_nonce_,
                                      options_.self_id, peer_);
    write_plain(json{{"t", "auth"},
                     {"node", options_.self_id},
                     {"nonce", to_hex(client_nonce_)},
                     {"mac", to_hex(mac)}});
    state_ = State::kProof;
  } else if (state_ == State::kAuth && type == "auth") {
    const std::string node = text_field(frame, "node", 64);
    if (!bad_node_id(node).empty()) throw std::runtime_error("a bad node id");
    LinkMac mac;
    if (!from_hex(text_field(frame, "nonce", 64), client_nonce_) ||
        !from_hex(text_field(frame, "mac", 64), mac)) {
      throw std::runtime_error("a bad nonce or proof");
    }
    if (!same_mac(mac, handshake_mac(options_.key, "client", server_nonce_, client_nonce_, node,
                                     options_.self_id))) {
      throw std::runtime_error(
          "a wrong proof (another secret, or a replayed handshake) "
          "from a peer calling itself " +
          node);
    }
    peer_ = node;
    write_plain(json{{"t", "proof"},
                     {"mac", to_hex(handshake_mac(options_.key, "server", server_nonce_,
                                                  client_nonce_, node, options_.self_id))}});
    open("s2c", "c2s");
  } else if (state_ == State::kProof && type == "proof") {
    LinkMac mac;
    if (!from_hex(text_field(frame, "mac", 64), mac) ||
        !same_mac(mac, handshake_mac(options_.key, "server", server_nonce_, client_nonce_,
                                     options_.self_id, peer_))) {
      throw std::runtime_error("node " + peer_ + " gave a wrong proof (another secret?)");
    }
    open("c2s", "s2c");
  } else {
    throw std::runtime_error("an unexpected '" + type + "' frame during the handshake");
  }
}

void LinkConn::open(std::string_view out, std::string_view in) {
  out_key_ = session_key(options_.key, out, server_nonce_, client_nonce_);
  in_key_ = session_key(options_.key, in, server_nonce_, client_nonce_);
  state_ = State::kOpen;
  timer_.cancel();
  if (handlers_.ready) handlers_.ready(shared_from_this());
}

void LinkConn::write(std::string payload) {
  const auto h = frame_header(payload.size());
  std::string bytes(reinterpret_cast<const char*>(h.data()), h.size());
  bytes += payload;
  queued_ += bytes.size();
  if (queued_ > options_.max_queued_bytes) return end("its output queue is full");
  queue_.push_back(std::move(bytes));
  if (queue_.size() == 1) write_next();
}

void LinkConn::write_next() {
  asio::async_write(socket_, asio::buffer(queue_.front()),
                    asio::bind_executor(strand_, [self = shared_from_this()](
                                                     boost::system::error_code ec, std::size_t) {
                      if (self->state_ == State::kClosed) return;
                      if (ec) return self->fail(ec.message());
                      self->queued_ -= self->queue_.front().size();
                      self->queue_.pop_front();
                      if (!self->queue_.empty()) self->write_next();
                    }));
}

}  // namespace plateau::cluster
