#pragma once
// One connection of the node link (node_link.h), either end: the handshake that authenticates
// both ends (link_auth.h), then MAC'd JSON frames in both directions, a bounded output queue.
// Everything but send() and close() runs on the connection's strand; any failure (a wrong
// proof, a frame too long, a wrong MAC, malformed JSON, a handler that throws) cuts this
// connection only, with handlers.closed saying why.
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

// clang-format off
#include <utility>
#include <boost/asio.hpp>
// clang-format on

#include "cluster/link_auth.h"
#include "cluster/node_link.h"

namespace plateau::cluster {

class LinkConn : public std::enable_shared_from_this<LinkConn> {
 public:
  enum class Role { kServer, kClient };
  struct Handlers {
    std::function<void(const std::shared_ptr<LinkConn>&)> ready;
    std::function<void(const std::shared_ptr<LinkConn>&, nlohmann::json)> frame;
    std::function<void(const std::shared_ptr<LinkConn>&, const std::string&)> closed;
  };

  // `expected_peer`: the node the connecting end called (its hello must name it); "" for the
  // listening end, which learns the peer's id from its proof.
  LinkConn(boost::asio::ip::tcp::socket socket, Role role, const LinkOptions& options,
           std::string expected_peer, Handlers handlers);

  std::uint64_t serial = 0;
  const std::string& peer() const { return peer_; }  // after ready (server side)
  const std::string& where() const { return where_; }

  // Starts the handshake (the listening end sends its hello); a handshake not finished
  // within options.handshake_timeout cuts the connection.
  void start();
  // Queues an authenticated frame (dropped before the handshake ends or after the close).
  // Thread-safe.
  void send(nlohmann::json frame);
  // Closes the connection; handlers.closed runs once. Thread-safe.
  void close(std::string why);

 private:
  enum class State { kStart, kHello, kAuth, kProof, kOpen, kClosed };

  // A failure before or after the handshake: cut, and logged (refusals rate-limited).
  void fail(const std::string& why);
  void end(const std::string& why);

  void read_header();
  void read_body();
  void on_frame();
  void open(std::string_view out, std::string_view in);
  void write_plain(const nlohmann::json& frame) { write(frame.dump()); }
  void write(std::string payload);
  void write_next();

  boost::asio::strand<boost::asio::any_io_executor> strand_;
  boost::asio::ip::tcp::socket socket_;
  boost::asio::steady_timer timer_;
  Role role_;
  const LinkOptions options_;  // a copy: a connection may outlive its NodeLink's last call
  std::string peer_;
  std::string where_;
  Handlers handlers_;
  State state_ = State::kStart;
  LinkNonce server_nonce_{}, client_nonce_{};
  LinkKey out_key_{}, in_key_{};
  std::uint64_t out_counter_ = 0, in_counter_ = 0;
  std::array<unsigned char, 4> header_{};
  std::string body_;
  std::deque<std::string> queue_;
  std::size_t queued_ = 0;
};

}  // namespace plateau::cluster
