#include "server/http_session.h"

#include <spdlog/spdlog.h>

#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

#include "core/registry.h"
#include "server/games_json.h"
#include "core/text.h"
#include "server/json_text.h"
#include "server/lobby.h"
#include "server/table_directory.h"
#include "server/origin_check.h"
#include "server/static_files.h"
#include "server/table_access.h"
#include "server/ws_session.h"

namespace plateau::server {

namespace beast = boost::beast;
namespace http = beast::http;

template <class Stream>
BasicHttpSession<Stream>::BasicHttpSession(Lobby& lobby, Stream stream, SessionLimits limits,
                                           const std::atomic<bool>& ready,
                                           std::shared_ptr<const HttpSettings> settings)
    : lobby_(lobby),
      stream_(std::move(stream)),
      limits_(limits),
      ready_(ready),
      settings_(std::move(settings)) {}

template <class Stream>
void BasicHttpSession<Stream>::start() {
  boost::asio::dispatch(stream_.get_executor(), [self = this->shared_from_this()] {
    if constexpr (kIsTls<Stream>) {
      // A client that never finishes its handshake (slowloris) is dropped at the deadline.
      beast::get_lowest_layer(self->stream_).expires_after(self->limits_.tls_handshake_timeout);
      self->stream_.async_handshake(
          boost::asio::ssl::stream_base::server, [self](beast::error_code ec) {
            if (ec) {
              spdlog::debug("https: TLS handshake failed: {}", ec.message());
              beast::get_lowest_layer(self->stream_).close();
              return;
            }
            self->read();
          });
    } else {
      self->read();
    }
  });
}

template <class Stream>
void BasicHttpSession<Stream>::read() {
  parser_ = std::make_unique<http::request_parser<http::string_body>>();
  parser_->body_limit(64 * 1024);
  parser_->header_limit(16 * 1024);
  beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(30));
  http::async_read(
      stream_, buffer_, *parser_,
      [self = this->shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
}

template <class Stream>
void BasicHttpSession<Stream>::close_send() {
  if constexpr (kIsTls<Stream>) {
    beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(5));
    stream_.async_shutdown([self = this->shared_from_this()](beast::error_code) {
      beast::get_lowest_layer(self->stream_).close();
    });
  } else {
    beast::error_code ignored;
    stream_.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_send, ignored);
  }
}

template <class Stream>
typename BasicHttpSession<Stream>::Response BasicHttpSession<Stream>::make(http::status status,
                                                                           std::string body,
                                                                           const char* type) const {
  Response res{status, parser_->get().version()};
  res.set(http::field::server, "plateau");
  res.set(http::field::content_type, type);
  res.keep_alive(parser_->get().keep_alive());
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

template <class Stream>
void BasicHttpSession<Stream>::on_read(beast::error_code ec) {
  if (ec == http::error::end_of_stream) {
    close_send();
    return;
  }
  if (ec == beast::error::timeout) {
    beast::get_lowest_layer(stream_).close();
    return;
  }
  if (ec) {
    if (ec == http::error::body_limit || ec == http::error::header_limit) {
      Response res{http::status::payload_too_large, 11};
      res.set(http::field::content_type, "text/plain");
      res.body() = "request too large\n";
      res.keep_alive(false);
      res.prepare_payload();
      respond(std::move(res));
    }
    return;
  }
  Request req = parser_->release();
  // Put the request back for make(): it reads the version and keep-alive.
  parser_ = std::make_unique<http::request_parser<http::string_body>>();
  parser_->get().version(req.version());
  parser_->get().keep_alive(req.keep_alive());

  const std::string target(req.target());
  // Text is validated at the edge (docs/SECURITY.md): nothing past here sees invalid UTF-8.
  if (const std::size_t bad = first_invalid_utf8(target); bad != std::string::npos) {
    respond(make(http::status::bad_request, "error: invalid UTF-8 at byte " +
                                                std::to_string(bad) + " of the request target\n"));
    return;
  }
  if (beast::websocket::is_upgrade(req)) {
    if (target != "/ws") {
      respond(make(http::status::not_found, "WebSocket endpoint is /ws\n"));
      return;
    }
    const auto origin = req.find(http::field::origin);
    const auto host = req[http::field::host];
    if (origin != req.end() &&
        !websocket_origin_allowed(std::string_view(origin->value().data(), origin->value().size()),
                                  std::string_view(host.data(), host.size()), kIsTls<Stream>,
                                  settings_->allowed_origins)) {
      // The operator's clue to a missing --allow-origin (behind a proxy); the value is the
      // client's: printable ASCII only, at most 100 bytes in the log.
      std::string shown(origin->value().substr(0, 100));
      for (char& c : shown) {
        if (c < 0x20 || c > 0x7e) c = '?';
      }
      spdlog::info(
          "http: WebSocket upgrade from Origin {} refused (not this server's origin, "
          "not an --allow-origin)",
          shown);
      respond(
          make(http::status::forbidden, "WebSocket connections from this origin are refused\n"));
      return;
    }
    auto ws = std::make_shared<BasicWsSession<Stream>>(lobby_, std::move(stream_), limits_);
    ws->hold(std::move(slot_));
    ws->start(std::move(req));
    return;
  }
  if (req.method() != http::verb::get && req.method() != http::verb::head) {
    respond(make(http::status::method_not_allowed, "only GET\n"));
    return;
  }
  spdlog::debug("http {}", target);
  if (target == "/healthz") {
    if (ready_) {
      respond(make(http::status::ok, "ok\n"));
    } else {
      respond(make(http::status::service_unavailable, "starting\n"));
    }
    return;
  }
  if (target == "/healthz/detail" || target == "/healthz?detail") {
    // For operators: "ok", or "degraded" with the stored tables start-up had to leave out.
    nlohmann::json skipped = nlohmann::json::array();
    for (const auto& t : lobby_.skipped_tables()) {
      skipped.push_back({{"game", t.game}, {"number", t.number}, {"id", t.id}, {"error", t.error}});
    }
    const char* status = !ready_ ? "starting" : skipped.empty() ? "ok" : "degraded";
    nlohmann::json j = {{"status", status}, {"skipped_tables", std::move(skipped)}};
    if (!lobby_.node_id().empty()) j["node"] = lobby_.node_id();  // docs/CLUSTER.md
    respond(make(ready_ ? http::status::ok : http::status::service_unavailable, json_text(j) + "\n",
                 "application/json"));
    return;
  }
  if (target == "/api/games") {
    // The same for every request and every connection: built once.
    static const std::string kGames = json_text(games_json()) + "\n";
    respond(make(http::status::ok, kGames, "application/json"));
    return;
  }
  if (target == "/api/tables") {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& s : lobby_.table_summaries()) {
      if (s.access.invisible) continue;  // HTTP carries no login: nobody may see it here
      j.push_back(listing_json(s));  // the same serialiser as the `tables` command
    }
    for (auto& [item, line] : lobby_.remote_tables()) j.push_back(std::move(item));
    respond(make(http::status::ok, json_text(j) + "\n", "application/json"));
    return;
  }
  if (starts_with(target, "/records/")) {
    // /records/GAME/NUMBER (an optional ".txt" suffix); an invisible table's record needs its
    // key, ?key=KEY (table_access.h), and is "no such record" without it, like a missing one.
    // Any node's table: the lobby asks its owner (lobby_records.cpp).
    std::string rest = target.substr(9);
    std::string key;
    if (auto q = rest.find('?'); q != std::string::npos) {
      if (starts_with(std::string_view(rest).substr(q + 1), "key=")) key = rest.substr(q + 5);
      rest.resize(q);
    }
    if (rest.size() > 4 && rest.substr(rest.size() - 4) == ".txt") rest.resize(rest.size() - 4);
    auto parts = split(rest, '/');
    if (parts.size() == 2 && !parts[1].empty() && parts[1].size() < 10 &&
        std::all_of(parts[1].begin(), parts[1].end(), ::isdigit)) {
      // A key that long matches no table's (32 hex digits): as none, so that it stays in bounds
      // on its way to another node.
      if (key.size() > kMaxRecordKeyBytes) key.clear();
      RecordRequest r{std::string(parts[0]), std::stoi(std::string(parts[1])), std::move(key)};
      // Another node's answer may take the link's 10 s: the response's write gets its own
      // time from here, not what the request's read left of it.
      beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(30));
      lobby_.fetch_record(r, false, [self = this->shared_from_this(), r](RecordAnswer answer) {
        // Any thread: the response is written on the session's.
        boost::asio::post(self->stream_.get_executor(), [self, r, answer = std::move(answer)] {
          const RecordResponse res = http_record_response(answer, r.game, r.number);
          self->respond(self->make(static_cast<http::status>(res.status), res.body));
        });
      });
      return;
    }
    respond(make(http::status::not_found, std::string(kNoSuchRecord)));
    return;
  }
  if (auto file = find_static_file(settings_->web_dir, target, settings_->data_dir)) {
    respond(make(http::status::ok, std::move(file->body), file->content_type));
    return;
  }
  if (target == "/") {
    respond(make(http::status::ok,
                 "Plateau server. Text commands on the text port, WebSocket on /ws; see "
                 "docs/PROTOCOL.md.\n"));
    return;
  }
  respond(make(http::status::not_found, "not found\n"));
}

template <class Stream>
void BasicHttpSession<Stream>::respond(Response response) {
  auto res = std::make_shared<Response>(std::move(response));
  const bool keep = res->keep_alive();
  http::async_write(
      stream_, *res,
      [self = this->shared_from_this(), res, keep](beast::error_code ec, std::size_t) {
        if (ec) return;
        if (!keep) {
          self->close_send();
          return;
        }
        self->read();
      });
}

template class BasicHttpSession<PlainStream>;
template class BasicHttpSession<TlsStream>;

}  // namespace plateau::server
