#include "echo_server.h"

#include <algorithm>
#include <memory>
#include <thread>
#include <vector>

#include "server/asio.h"

namespace plateau::bench {

namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

constexpr std::size_t kMaxLine = 64 * 1024;

// One connection: read a line, write it back, read the next (a client has at most a few lines
// in flight, as with plateau serve, so no pipelining is needed to keep up).
class EchoSession : public std::enable_shared_from_this<EchoSession> {
 public:
  explicit EchoSession(tcp::socket socket) : socket_(std::move(socket)), buf_(kMaxLine) {}

  void start() {
    boost::system::error_code ec;
    socket_.set_option(tcp::no_delay(true), ec);
    read();
  }

 private:
  void read() {
    asio::async_read_until(
        socket_, buf_, '\n',
        [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
          if (ec) return;  // closed, or a line over kMaxLine
          self->line_.assign(asio::buffers_begin(self->buf_.data()),
                             asio::buffers_begin(self->buf_.data()) + n);
          self->buf_.consume(n);
          self->write();
        });
  }

  void write() {
    asio::async_write(socket_, asio::buffer(line_),
                      [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
                        if (!ec) self->read();
                      });
  }

  tcp::socket socket_;
  asio::streambuf buf_;
  std::string line_;
};

void accept(tcp::acceptor& acceptor) {
  acceptor.async_accept([&acceptor](boost::system::error_code ec, tcp::socket socket) {
    if (!acceptor.is_open()) return;
    if (!ec) std::make_shared<EchoSession>(std::move(socket))->start();
    accept(acceptor);
  });
}

}  // namespace

void run_echo_server(const std::string& address, std::uint16_t port, int threads) {
  asio::io_context io(std::max(1, threads));
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address(address), port));
  accept(acceptor);
  asio::signal_set signals(io, SIGTERM, SIGINT);
  signals.async_wait([&](boost::system::error_code, int) {
    boost::system::error_code ec;
    acceptor.close(ec);
    io.stop();
  });
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back([&io] { io.run(); });
  io.run();
  for (auto& t : pool) t.join();
}

}  // namespace plateau::bench
