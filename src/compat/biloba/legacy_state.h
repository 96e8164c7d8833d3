#pragma once
// Internal to the legacy server (legacy_server*.cpp, legacy_session.cpp, legacy_cpu_seat.cpp):
// the game directory's shared state. Everything here is touched only on the server's strand.
// clang-format off
#include "compat/biloba/legacy_server.h"  // first: Boost 1.74's awaitable.hpp needs <utility>
// clang-format on

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/generic/stream_protocol.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "compat/biloba/wire.h"
#include "core/game.h"
#include "games/biloba/biloba_clicks.h"

namespace plateau::biloba::net {

namespace detail {

namespace asio = boost::asio;
using asio::awaitable;
using asio::use_awaitable;
using tcp = asio::ip::tcp;
// A connection's socket: TCP from the port, or one end of a local socket pair for a
// connection relayed from another node (LegacyServer::adopt).
using Stream = asio::generic::stream_protocol::socket;
using Clock = std::chrono::steady_clock;
using Strand = asio::strand<asio::any_io_executor>;

struct Click {
  int seat;
  std::int32_t x;
  std::int32_t y;
};

// The seat of a chat line said from outside the game (LegacyServer::say).
inline constexpr int kOutsideSeat = -1;
// Chat lines kept per game; later lines are dropped.
inline constexpr std::size_t kMaxChatLines = 10'000;

class Session;
class CpuSeat;

// One legacy game: the original's shared game structure, owned by the directory and by the
// sessions in it. Only touched on the server's strand.
struct Game {
  int id = 0;
  std::string name;
  int players = 0;
  std::vector<SeatType> types;
  std::vector<std::string> names;
  std::vector<bool> filled;        // a name is known: creator's seats, joined and CPU seats
  std::vector<Session*> reserved;  // PRELJOIN reservation per seat
  int last_joined = 0;
  bool started = false;
  bool killed = false;
  bool finalized = false;  // out of the directory: CPU seats stop and release the game
  Clock::time_point published;
  std::vector<Click> moves;
  std::set<Session*> members;  // open game connections
  std::vector<std::shared_ptr<CpuSeat>> cpus;
  std::vector<std::pair<int, std::string>> chat;  // (seat or kOutsideSeat, Latin-1 text)
  std::set<Session*> talkers;
  // The server's replay of the click stream (stops at the first click it cannot place).
  Position start;
  std::optional<ClickMachine> machine;
  bool replay_broken = false;
  bool click_limit = false;  // ended by LegacyServerOptions::max_clicks
  // The live hooks (on_started, on_turn): the position before the next turn to report, and
  // how many turns were reported.
  std::unique_ptr<plateau::State> turn_state;
  std::size_t turns_told = 0;

  int missing() const {
    int n = 0;
    for (bool f : filled) n += f ? 0 : 1;
    return n;
  }
  // The 1-based spot PRELJOIN offers: the first free network seat, or -1.
  int free_spot() const {
    for (int s = 0; s < players; ++s) {
      if (types[s] == SeatType::kNetwork && !filled[s] && reserved[s] == nullptr) return s + 1;
    }
    return -1;
  }
};

}  // namespace detail

struct LegacyServer::Impl : std::enable_shared_from_this<LegacyServer::Impl> {
  Impl(boost::asio::any_io_executor ex, LegacyServerOptions opts)
      : strand(boost::asio::make_strand(ex)), acceptor(strand), options(std::move(opts)) {
    next_id = std::max(1, options.first_id);
    if (options.log_file == "-") {
      log_stream = &std::cerr;
    } else if (!options.log_file.empty()) {
      log_file.open(options.log_file, std::ios::app);
      if (!log_file) throw std::runtime_error("can't open " + options.log_file);
      log_stream = &log_file;
    }
  }

  void log(const std::string& line) {
    if (log_stream) *log_stream << line << std::endl;
  }

  detail::awaitable<void> accept_loop();
  void notify(detail::Game& game);
  void finalize(const std::shared_ptr<detail::Game>& game);
  // Records a relayed click, feeds it to the replay, and ends the game at max_clicks.
  void append(detail::Game& game, detail::Click click);
  void replay(detail::Game& game, detail::Click click);
  void maybe_cpu_fill(const std::shared_ptr<detail::Game>& game);
  // Every seat is filled: on_started.
  void started(detail::Game& game);
  // on_turn for each turn the replay completed since the last call.
  void report_turns(detail::Game& game);
  // Appends a chat line of `seat` (kOutsideSeat: LegacyServer::say) and wakes the talkers.
  void add_chat(detail::Game& game, int seat, std::string text);

  detail::Strand strand;
  detail::tcp::acceptor acceptor;
  LegacyServerOptions options;
  std::ofstream log_file;
  std::ostream* log_stream = nullptr;
  int next_id = 1;
  std::map<int, std::shared_ptr<detail::Game>> games;
  std::set<std::shared_ptr<detail::Session>> sessions;
  bool stopped = false;
};

}  // namespace plateau::biloba::net
