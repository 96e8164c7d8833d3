#pragma once
// The client side of biloba 0.9.3's TCP protocol (specs/biloba.md §11.4, §11.5): blocking
// calls over one connection each, used by the `biloba` command, the CPU-seat tests and the
// scripted interop tests. Every read has a timeout (none while waiting for a peer's click
// unless one is set), and every failure throws ProtocolError or boost::system::system_error.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compat/biloba/wire.h"

#include <boost/asio.hpp>

namespace plateau::biloba::net {

// One TCP connection with framed, blocking I/O.
class Connection {
 public:
  // Connects to host:port (throws system_error). `timeout` bounds each read (0 = none).
  Connection(const std::string& host, unsigned short port,
             std::chrono::milliseconds timeout = std::chrono::seconds(30));
  void set_timeout(std::chrono::milliseconds timeout);

  void send(const Bytes& bytes);
  void send_string(std::string_view text);
  void send_int(std::int32_t value);
  void send_char(char c);
  Bytes read_message();
  std::string read_string() { return decode_string(read_message()); }
  std::int32_t read_int() { return decode_int(read_message()); }
  // Reads exactly n raw bytes (tests compare exact server output).
  Bytes read_bytes(std::size_t n);
  // True when data (or end-of-file) is waiting, after at most `wait`.
  bool readable(std::chrono::milliseconds wait);
  void close();

 private:
  boost::asio::io_context io_;
  boost::asio::ip::tcp::socket socket_;
};

struct ListedGame {
  int id = 0;
  std::string name;
};

// LISTGAME on a new connection: the (at most 6) open games for `players` players.
std::vector<ListedGame> list_games(const std::string& host, unsigned short port, int players);

// What a "READY?" poll answered.
struct ReadyStatus {
  int missing = 0;
  int last_joined = 0;
  std::string last_name;
  std::vector<std::string> names;  // all seat names once missing == 0
};

// A player's game connection plus its chat connection.
class LegacyClient {
 public:
  // Creates a game (§11.4 "Create a game"): NEWGAME, name, details. Seat 0 is local.
  // Throws ProtocolError when the server answers ERROR.
  static LegacyClient create(const std::string& host, unsigned short port,
                             const std::string& game_name, const std::vector<SeatDetail>& seats);
  // Joins game `id` for `players` players (§11.4 "Join a game"): LISTGAME, PRELJOIN, JOIN
  // (offered spot − 1), name. Throws ProtocolError when the game is unknown or full.
  static LegacyClient join(const std::string& host, unsigned short port, int players, int id,
                           const std::string& name);

  int game_id() const { return game_id_; }
  int seat() const { return seat_; }
  int players() const { return players_; }
  // The names PRELJOIN showed (joiners; "" for free seats).
  const std::vector<std::string>& offered_names() const { return offered_; }

  // One "READY?" poll.
  ReadyStatus poll_ready();
  // Polls every `every` until nobody is missing or `limit` passes (throws ProtocolError).
  ReadyStatus wait_ready(std::chrono::milliseconds every, std::chrono::milliseconds limit,
                         const std::function<void(const ReadyStatus&)>& progress = {});

  // Play (§11.4): 'p' seat x y; 'r' seat → (x, y); 'q' seat.
  void send_click(int seat, int x, int y);
  std::pair<int, int> receive_click(int seat);
  void quit(const std::vector<int>& local_seats);

  // Chat (§11.5): a second connection in talk mode.
  void open_chat();
  // The talk-mode connection itself (TALK_MODE, game id, seat; the server answers OK), for a
  // caller that reads chat on a thread of its own (the biloba window). `timeout` bounds each
  // read. Throws ProtocolError when the server refuses, std::system_error when it cannot be
  // reached.
  std::unique_ptr<Connection> talk_connection(std::chrono::milliseconds timeout) const;
  void say(const std::string& text);
  // The next chat line (seat, text) if one arrives within `wait`.
  std::optional<std::pair<int, std::string>> poll_chat(std::chrono::milliseconds wait);

  Connection& connection() { return *game_; }
  void close();

 private:
  LegacyClient() = default;
  std::string host_;
  unsigned short port_ = 0;
  std::unique_ptr<Connection> game_;
  std::unique_ptr<Connection> chat_;
  int game_id_ = 0;
  int seat_ = 0;
  int players_ = 0;
  std::vector<std::string> offered_;
};

}  // namespace plateau::biloba::net
