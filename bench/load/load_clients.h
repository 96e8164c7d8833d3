#pragma once
// The robots of plateau_load: text connections that log in as guests, pair up into boards
// (`GAME challenge`), and play random legal moves (chosen through the core interface, so every
// move sent is legal) game after game, recording every acknowledged move and its latency from
// sending `move BOARD MOVE#n` to the move line of the answer.
//
// With several nodes, games spread round-robin over the nodes; a game's two robots connect to
// the same node (the node that opens its board), or with `spread` the second one to the next
// node for the whole run: the challenge names a user of another node, the board is made on the
// challenger's node, and the second player's commands reach it through the node link (its
// answers come back that way, the first player's moves through the event feed).
// A robot whose node is killed stops; the move it had sent unanswered is kept as in flight
// (it may be stored or not: nobody was told).
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/game.h"
#include "core/state.h"
#include "server/asio.h"

namespace plateau::bench {

struct LoadOptions {
  int connections = 1000;
  int games = 500;
  double seconds = 20;
  std::string game = "bohnduell(supply=20)";
  double rate = 0;  // offered moves/s in all (think time between moves); 0: as fast as possible
  std::uint64_t seed = 1;
  // Several nodes: a game's second player on the next node (its commands forwarded to the
  // table's owner by the node link); otherwise both on one node.
  bool spread = false;
};

// --spread: the wait after the last login before the first challenge, so that every node has
// read the others' presence rows (written at once, read once a second: docs/CLUSTER.md).
inline constexpr int kPresenceWaitMs = 2500;

struct Robots;
using Clock = std::chrono::steady_clock;

struct Conn : std::enable_shared_from_this<Conn> {
  Conn(Robots& r, boost::asio::io_context& io, int index) : robots(r), socket(io), index(index) {}
  void start(const boost::asio::ip::tcp::endpoint& ep);
  void read();
  void send(std::string line);
  void on_line(const std::string& line);
  void on_closed();

  Robots& robots;
  boost::asio::ip::tcp::socket socket;
  boost::asio::streambuf buf;
  std::deque<std::string> out;
  bool writing = false;
  bool closed = false;  // the server closed it (its node was killed) or the run ended
  int index;
  int node = 0;
  std::string name;
  std::string token;  // its resume token ("Resume token: ..."), to log in again elsewhere
  int game = -1;      // index of the pair game, -1 for idle connections
};

struct PairGame {
  int a = -1, b = -1;  // connections: a challenges, a is seat 1
  int board = 0;
  std::unique_ptr<State> state;
  bool pending = false;             // a move is due or awaits its answer: the run ends once none is
  bool dead = false;                // its node was killed: it plays no more (unless it rejoins)
  int resumed = 0;                  // rejoining: how many of its robots are logged in again
  bool first_after_rejoin = false;  // its next acknowledged move is the first on the new owner
  int expected_ply = 0;
  std::string expected_move;
  // --spread: the board the second player has heard of (its `New ... Board N`, through the
  // feed); it moves on a board only once it has, as a player would.
  int b_heard = 0;
  bool b_waiting = false;  // its move is due but it has not heard of the board yet
  std::chrono::steady_clock::time_point sent;  // its move, or its challenge
  std::unique_ptr<boost::asio::steady_timer> think;
};

struct Robots {
  // Makes the connections and pairs them (`endpoints`: one per node; game g on node
  // g % nodes). `echo`: the peer echoes every line (echo_server.h).
  Robots(const LoadOptions& opt, std::shared_ptr<const Game> game, bool echo,
         std::vector<boost::asio::ip::tcp::endpoint> endpoints);
  // Connects every robot and runs until the measured time is over and no move is in flight.
  // `on_measuring` is called (on the I/O thread) once every robot is logged in.
  void run(std::function<void()> on_measuring);

  void logged(Conn& c);
  void begin();  // every robot logged in (and, with --spread, the wait over): the games start
  void challenge(int g);
  // --spread: a challenge answered `error: no user named` (the other node's presence not read
  // yet) is sent again 200 ms later.
  void retry_challenge(int g);
  void next(int g);
  void send_move(int g);
  void on_new_board(Conn& c, int board);
  // A move line (any robot, any board): kept for the event stream check.
  void heard(Conn& c, int board, int ply);
  void on_move(Conn& c, int board, int ply, const std::string& move);
  void on_closed(Conn& c);
  // After a kill: the dead games whose table `owner_node` names (board -> node index) connect
  // again to that node, `resume` their robots and play on, re-sending the move that was in
  // flight with its #n (answered once, whether or not it had been stored).
  void rejoin_games(const std::map<int, int>& owner_node);
  void on_resumed(Conn& c);
  // A rejoined game's move answered `error: no board` (the new owner has claimed the table
  // but not loaded it yet): sent again 50 ms later.
  void retry_after_rejoin(int g);
  void fail(const std::string& why);
  void check_done();

  LoadOptions opt;
  boost::asio::io_context io;
  std::vector<boost::asio::ip::tcp::endpoint> endpoints;
  std::vector<std::shared_ptr<Conn>> conns;
  std::vector<PairGame> games;
  std::shared_ptr<const Game> game;
  std::string game_name;
  std::string game_options;
  std::mt19937_64 rng;
  bool echo = false;     // the peer is the echo server: replies are our own lines
  int next_board = 101;  // echo: boards are numbered here, as the server would
  int logged_in = 0;
  bool measuring = false;
  bool stopping = false;
  Clock::time_point start, end;
  boost::asio::steady_timer timer{io};
  std::function<void()> on_measuring;

  std::vector<double> latencies_ms;
  // The same, split: moves sent by a robot on another node than its game's challenger (with
  // --spread, forwarded to the table's owner) and the others.
  std::vector<double> latencies_other_ms, latencies_home_ms;
  std::vector<double> challenge_ms;  // from `GAME challenge` to its `New ... Board N`
  long moves = 0;
  long games_finished = 0;
  long errors = 0;
  long challenge_retries = 0;  // --spread: challenges sent again (retry_challenge)
  long closed_by_server = 0;   // connections the server closed before the end
  std::map<int, std::vector<std::string>> acked;  // board -> moves acknowledged, by ply
  // (robot, board) -> the plies of the move lines it received, in arrival order.
  std::map<std::pair<int, int>, std::vector<int>> heard_plies;
  // Every robot must hear every move of its boards once: plies missing below the last one it
  // heard (a tail still on its way at the end is not missing), plies heard twice, and plies
  // heard after a later one.
  struct StreamCheck {
    long streams = 0, missing = 0, twice = 0, out_of_order = 0;
  };
  StreamCheck check_streams() const;
  std::map<int, std::string> in_flight;  // board -> move sent, unanswered when its node died
  std::map<int, std::map<int, long>> acked_via;
  Clock::time_point killed_at;
  int unanswered_at_kill = 0;    // moves in flight when their node died
  int rejoining = 0;             // games sent to their new owner
  std::vector<double> rejoin_s;  // per rejoined game: kill -> its first move acknowledged again  //
                                 // board -> node index -> moves acked through it
};

}  // namespace plateau::bench
