#pragma once
// The HTTP transport (default port 8080): GET /healthz ("ok" once every listener is up),
// GET /api/games, GET /api/tables (JSON), GET /records/GAME/NUMBER (the game record as text),
// and the WebSocket upgrade on /ws. Requests are limited to 64 KiB; idle connections close
// after 30 s.
#include <atomic>
#include <boost/beast/core.hpp>
#include <filesystem>
#include <boost/beast/http.hpp>
#include <memory>

#include "server/asio.h"
#include "server/session.h"

namespace plateau::server {

class Lobby;

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  // `web_dir` holds the browser client's built files (served for any other GET).
  HttpSession(Lobby& lobby, boost::asio::ip::tcp::socket socket, SessionLimits limits,
              const std::atomic<bool>& ready, std::filesystem::path web_dir);
  void start();
  // Keeps `slot` (the connection's place in the ConnectionLimit) for the connection's life,
  // handed on to the WebSocket session after an upgrade.
  void hold(std::shared_ptr<const void> slot) { slot_ = std::move(slot); }

 private:
  using Request = boost::beast::http::request<boost::beast::http::string_body>;
  using Response = boost::beast::http::response<boost::beast::http::string_body>;
  void read();
  void on_read(boost::beast::error_code ec);
  void respond(Response response);
  Response make(boost::beast::http::status status, std::string body,
                const char* type = "text/plain; charset=utf-8") const;

  Lobby& lobby_;
  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
  std::unique_ptr<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  SessionLimits limits_;
  const std::atomic<bool>& ready_;
  std::filesystem::path web_dir_;
  std::shared_ptr<const void> slot_;
};

}  // namespace plateau::server
