#pragma once
// The HTTP transport (default port 8080): GET /healthz ("ok" once every listener is up),
// GET /api/games, GET /api/tables (JSON), GET /records/GAME/NUMBER (the game record as text),
// the WebSocket upgrade on /ws, and the browser client's files (static_files.h) for any other
// GET. Requests are limited to 64 KiB; idle connections close after 30 s.
//
// One template over the byte stream (streams.h): HttpSession is plain HTTP, HttpsSession is
// HTTPS (the TLS handshake first, within SessionLimits::tls_handshake_timeout), with the same
// routing. A WebSocket upgrade whose Origin is neither the served origin nor allowed
// (HttpSettings::allowed_origins) is refused with 403 (origin_check.h).
#include <atomic>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "server/asio.h"
#include "server/session.h"
#include "server/streams.h"

namespace plateau::server {

class Lobby;

// What every HTTP session of one server shares.
struct HttpSettings {
  std::filesystem::path web_dir;             // the browser client's built files
  std::filesystem::path data_dir;            // never served, even when inside web_dir
  std::vector<std::string> allowed_origins;  // --allow-origin, besides the served origin
};

template <class Stream>
class BasicHttpSession : public std::enable_shared_from_this<BasicHttpSession<Stream>> {
 public:
  // `stream` is the accepted connection (for TLS, not yet handshaken).
  BasicHttpSession(Lobby& lobby, Stream stream, SessionLimits limits,
                   const std::atomic<bool>& ready, std::shared_ptr<const HttpSettings> settings);
  void start();

 private:
  using Request = boost::beast::http::request<boost::beast::http::string_body>;
  using Response = boost::beast::http::response<boost::beast::http::string_body>;
  void read();
  void on_read(boost::beast::error_code ec);
  void respond(Response response);
  // Ends the connection after the last response: TCP half-close, or the TLS close_notify.
  void close_send();
  Response make(boost::beast::http::status status, std::string body,
                const char* type = "text/plain; charset=utf-8") const;

  Lobby& lobby_;
  Stream stream_;
  boost::beast::flat_buffer buffer_;
  std::unique_ptr<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  SessionLimits limits_;
  const std::atomic<bool>& ready_;
  std::shared_ptr<const HttpSettings> settings_;
};

using HttpSession = BasicHttpSession<PlainStream>;
using HttpsSession = BasicHttpSession<TlsStream>;

extern template class BasicHttpSession<PlainStream>;
extern template class BasicHttpSession<TlsStream>;

}  // namespace plateau::server
