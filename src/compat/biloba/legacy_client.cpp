#include "compat/biloba/legacy_client.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <functional>
#include <thread>

namespace plateau::biloba::net {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

Connection::Connection(const std::string& host, unsigned short port,
                       std::chrono::milliseconds timeout)
    : socket_(io_) {
  tcp::resolver resolver(io_);
  asio::connect(socket_, resolver.resolve(host, std::to_string(port)));
  socket_.set_option(tcp::no_delay(true));
  set_timeout(timeout);
}

void Connection::set_timeout(std::chrono::milliseconds timeout) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(timeout.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((timeout.count() % 1000) * 1000);
  ::setsockopt(socket_.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(socket_.native_handle(), SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

void Connection::send(const Bytes& bytes) { asio::write(socket_, asio::buffer(bytes)); }
void Connection::send_string(std::string_view text) {
  Bytes b;
  put_string(b, text);
  send(b);
}
void Connection::send_int(std::int32_t value) {
  Bytes b;
  put_int(b, value);
  send(b);
}
void Connection::send_char(char c) {
  Bytes b;
  put_char(b, c);
  send(b);
}

Bytes Connection::read_bytes(std::size_t n) {
  Bytes out(n);
  std::size_t got = 0;
  while (got < n) {
    boost::system::error_code ec;
    const std::size_t k = socket_.read_some(asio::buffer(out.data() + got, n - got), ec);
    if (ec == asio::error::would_block || ec == asio::error::try_again) {
      throw ProtocolError("timed out waiting for the server");
    }
    if (ec) throw boost::system::system_error(ec);
    got += k;
  }
  return out;
}

Bytes Connection::read_message() {
  const Bytes len = read_bytes(1);
  if (len[0] == 0) return {};
  return read_bytes(len[0]);
}

bool Connection::readable(std::chrono::milliseconds wait) {
  pollfd fd{socket_.native_handle(), POLLIN, 0};
  return ::poll(&fd, 1, static_cast<int>(wait.count())) > 0;
}

void Connection::close() {
  boost::system::error_code ec;
  socket_.shutdown(tcp::socket::shutdown_both, ec);
  socket_.close(ec);
}

std::vector<ListedGame> list_games(const std::string& host, unsigned short port, int players) {
  Connection c(host, port);
  c.send_string("LISTGAME");
  if (c.read_string().rfind("NUMP", 0) != 0) throw ProtocolError("server did not answer NUMP");
  c.send_int(players);
  const int k = c.read_int();
  if (k < 0 || k > kMaxListedGames) throw ProtocolError("server listed " + std::to_string(k) +
                                                        " games");
  std::vector<ListedGame> games;
  for (int i = 0; i < k; ++i) {
    ListedGame g;
    g.id = c.read_int();
    g.name = c.read_string();
    games.push_back(std::move(g));
  }
  c.close();
  return games;
}

LegacyClient LegacyClient::create(const std::string& host, unsigned short port,
                                  const std::string& game_name,
                                  const std::vector<SeatDetail>& seats) {
  LegacyClient client;
  client.host_ = host;
  client.port_ = port;
  client.players_ = static_cast<int>(seats.size());
  client.game_ = std::make_unique<Connection>(host, port);
  Connection& c = *client.game_;
  c.send_string("NEWGAME");
  if (c.read_string().rfind("OK", 0) != 0) throw ProtocolError("server refused NEWGAME");
  c.send_string(outbound_text(game_name));
  client.game_id_ = c.read_int();
  Bytes details;
  std::vector<SeatDetail> sent = seats;
  for (SeatDetail& s : sent) s.name = outbound_text(s.name);
  put_raw(details, encode_details(sent));
  c.send(details);
  if (c.read_string().rfind("READY", 0) != 0) throw ProtocolError("server refused the game");
  client.seat_ = 0;
  return client;
}

LegacyClient LegacyClient::join(const std::string& host, unsigned short port, int players,
                                int id, const std::string& name) {
  LegacyClient client;
  client.host_ = host;
  client.port_ = port;
  client.players_ = players;
  client.game_ = std::make_unique<Connection>(host, port);
  Connection& c = *client.game_;
  c.send_string("LISTGAME");
  if (c.read_string().rfind("NUMP", 0) != 0) throw ProtocolError("server did not answer NUMP");
  c.send_int(players);
  const int k = c.read_int();
  for (int i = 0; i < k; ++i) {
    c.read_int();
    c.read_string();
  }
  c.send_string("PRELJOIN");
  c.send_int(id);
  if (c.read_string().rfind("OK", 0) != 0) {
    throw ProtocolError("game " + std::to_string(id) + " cannot be joined");
  }
  for (int s = 0; s < players; ++s) client.offered_.push_back(c.read_string());
  const int spot = c.read_int();
  if (spot < 1 || spot > players) throw ProtocolError("game " + std::to_string(id) + " is full");
  c.send_string("JOIN");
  c.send_int(spot - 1);
  if (c.read_string().rfind("OK", 0) != 0) throw ProtocolError("server refused JOIN");
  c.send_string(outbound_text(name));
  client.game_id_ = id;
  client.seat_ = spot - 1;
  return client;
}

ReadyStatus LegacyClient::poll_ready() {
  Connection& c = *game_;
  c.send_string("READY?");
  ReadyStatus r;
  r.missing = c.read_int();
  r.last_joined = c.read_int();
  r.last_name = c.read_string();
  if (r.missing == 0) {
    for (int s = 0; s < players_; ++s) r.names.push_back(c.read_string());
  }
  return r;
}

ReadyStatus LegacyClient::wait_ready(std::chrono::milliseconds every,
                                     std::chrono::milliseconds limit,
                                     const std::function<void(const ReadyStatus&)>& progress) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (true) {
    ReadyStatus r = poll_ready();
    if (progress) progress(r);
    if (r.missing == 0) return r;
    if (std::chrono::steady_clock::now() > end) {
      throw ProtocolError("players still missing after the time limit");
    }
    std::this_thread::sleep_for(every);
  }
}

void LegacyClient::send_click(int seat, int x, int y) {
  Bytes b;
  put_char(b, 'p');
  put_int(b, seat);
  put_int(b, x);
  put_int(b, y);
  game_->send(b);
}

std::pair<int, int> LegacyClient::receive_click(int seat) {
  while (true) {
    Bytes b;
    put_char(b, 'r');
    put_int(b, seat);
    game_->send(b);
    const int x = game_->read_int();
    const int y = game_->read_int();
    if (x == kRetryCoord && y == kRetryCoord) continue;
    return {x, y};
  }
}

void LegacyClient::quit(const std::vector<int>& local_seats) {
  for (int seat : local_seats) {
    Bytes b;
    put_char(b, 'q');
    put_int(b, seat);
    boost::system::error_code ec;
    try {
      game_->send(b);
    } catch (const std::exception&) {
    }
  }
  close();
}

std::unique_ptr<Connection> LegacyClient::talk_connection(std::chrono::milliseconds timeout) const {
  auto talk = std::make_unique<Connection>(host_, port_, timeout);
  talk->send_string("TALK_MODE");
  talk->send_int(game_id_);
  talk->send_int(seat_);
  if (talk->read_string().rfind("OK", 0) != 0) throw ProtocolError("server refused talk mode");
  return talk;
}

void LegacyClient::open_chat() { chat_ = talk_connection(std::chrono::seconds(30)); }

void LegacyClient::say(const std::string& text) {
  if (chat_) chat_->send_string(outbound_text(text, kMaxStringChars));
}

std::optional<std::pair<int, std::string>> LegacyClient::poll_chat(
    std::chrono::milliseconds wait) {
  if (!chat_ || !chat_->readable(wait)) return std::nullopt;
  try {
    const int seat = chat_->read_int();
    return std::make_pair(seat, chat_->read_string());
  } catch (const std::exception&) {
    // The server closes talk connections when the game ends: chat is over, the game is not.
    chat_->close();
    chat_.reset();
    return std::nullopt;
  }
}

void LegacyClient::close() {
  if (game_) game_->close();
  if (chat_) chat_->close();
}

}  // namespace plateau::biloba::net
