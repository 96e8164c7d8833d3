#include "load_clients.h"

#include <algorithm>
#include <iostream>
#include <regex>
#include <utility>

#include "core/registry.h"
#include "core/text.h"

namespace plateau::bench {

namespace asio = boost::asio;
using asio::ip::tcp;

Robots::Robots(const LoadOptions& o, std::shared_ptr<const Game> g, bool e,
               std::vector<tcp::endpoint> eps)
    : opt(o), endpoints(std::move(eps)), game(std::move(g)), echo(e) {
  rng.seed(opt.seed);
  game_name = game->name();
  game_options = game->options_string();
  const int nodes = static_cast<int>(endpoints.size());
  for (int i = 0; i < opt.connections; ++i) {
    conns.push_back(std::make_shared<Conn>(*this, io, i));
    conns.back()->node = i < 2 * opt.games ? (i / 2) % nodes : i % nodes;
    // The second player of a game on the next node, for the whole run: its commands go to the
    // table's owner through the node link, the first player's moves reach it through the feed.
    if (opt.spread && i < 2 * opt.games && i % 2 == 1) conns.back()->node = (i / 2 + 1) % nodes;
  }
  for (int g = 0; g < opt.games; ++g) {
    PairGame pg;
    pg.a = 2 * g;
    pg.b = 2 * g + 1;
    conns[pg.a]->game = g;
    conns[pg.b]->game = g;
    games.push_back(std::move(pg));
  }
}

void Robots::run(std::function<void()> measuring_started) {
  on_measuring = std::move(measuring_started);
  for (auto& c : conns) c->start(endpoints[c->node]);
  io.run();
}

void Robots::logged(Conn&) {
  if (++logged_in < opt.connections) return;
  if (opt.spread && endpoints.size() > 1) {
    // A challenge names a user of another node: each node learns who is on the others within
    // about a second (docs/CLUSTER.md, "Presence").
    std::cout << "all " << opt.connections << " connections logged in; waiting " << kPresenceWaitMs
              << " ms for the nodes to see each other's users\n"
              << std::flush;
    timer.expires_after(std::chrono::milliseconds(kPresenceWaitMs));
    timer.async_wait([this](boost::system::error_code ec) {
      if (!ec) begin();
    });
    return;
  }
  begin();
}

void Robots::begin() {
  std::cout << "all " << opt.connections << " connections logged in; starting " << opt.games
            << " games\n"
            << std::flush;
  start = Clock::now();
  measuring = true;
  if (on_measuring) on_measuring();
  for (std::size_t g = 0; g < games.size(); ++g) challenge(static_cast<int>(g));
  timer.expires_after(std::chrono::milliseconds(static_cast<long>(opt.seconds * 1000)));
  timer.async_wait([this](boost::system::error_code) {
    stopping = true;
    end = Clock::now();
    for (auto& pg : games) {
      if (pg.b_waiting) pg.pending = pg.b_waiting = false;  // its move was never sent
    }
    check_done();
  });
}

void Robots::challenge(int g) {
  PairGame& pg = games[g];
  std::string opts;
  if (!game_options.empty()) {
    for (const auto& part : split(game_options, ',')) opts += " -" + std::string(part);
  }
  pg.sent = Clock::now();
  conns[pg.a]->send(game_name + " challenge" + opts + " " + conns[pg.a]->name + " " +
                    conns[pg.b]->name);
}

void Robots::retry_challenge(int g) {
  PairGame& pg = games[g];
  ++challenge_retries;
  if (!pg.think) pg.think = std::make_unique<asio::steady_timer>(io);
  pg.pending = true;  // the run ends once the game is made (or given up)
  pg.think->expires_after(std::chrono::milliseconds(200));
  pg.think->async_wait([this, g](boost::system::error_code ec) {
    games[g].pending = false;
    if (!ec && !stopping) challenge(g);
    check_done();
  });
}

void Robots::next(int g) {
  PairGame& pg = games[g];
  if (pg.state->is_terminal()) {
    ++games_finished;
    pg.board = 0;
    if (!stopping) challenge(g);
    check_done();
    return;
  }
  if (stopping) {
    check_done();
    return;
  }
  if (opt.rate > 0) {
    // Players think: on average games / rate seconds between moves (uniform 0.5x..1.5x).
    const double mean = static_cast<double>(opt.games) / opt.rate;
    const double t = mean * (0.5 + static_cast<double>(rng() % 1000) / 1000.0);
    if (!pg.think) pg.think = std::make_unique<asio::steady_timer>(io);
    pg.pending = true;  // a move is due: the run ends once none is
    pg.expected_ply = -1;
    pg.think->expires_after(std::chrono::microseconds(static_cast<long>(t * 1e6)));
    pg.think->async_wait([this, g](boost::system::error_code) { send_move(g); });
    return;
  }
  send_move(g);
}

void Robots::send_move(int g) {
  PairGame& pg = games[g];
  if (stopping || pg.dead) {
    pg.pending = false;
    check_done();
    return;
  }
  const int to_move = pg.state->current_seat() == 0 ? pg.a : pg.b;
  if (opt.spread && to_move == pg.b && pg.b_heard != pg.board && !echo) {
    pg.pending = true;
    pg.b_waiting = true;  // sent once it hears of the board (on_new_board)
    return;
  }
  auto legal = pg.state->legal_moves();
  const Move& m = legal[rng() % legal.size()];
  pg.expected_move = pg.state->move_to_string(m);
  pg.expected_ply = pg.state->ply() + 1;
  pg.pending = true;
  pg.sent = Clock::now();
  const int mover = pg.state->current_seat() == 0 ? pg.a : pg.b;
  conns[mover]->send("move " + std::to_string(pg.board) + " " + pg.expected_move + "#" +
                     std::to_string(pg.expected_ply));
}

void Robots::on_new_board(Conn& c, int board) {
  if (c.game >= 0 && games[c.game].b == c.index) {
    PairGame& pg = games[c.game];
    pg.b_heard = board;
    if (pg.b_waiting && pg.board == board) {
      pg.b_waiting = false;
      send_move(c.game);
    }
    return;
  }
  if (c.game < 0 || games[c.game].a != c.index) return;
  PairGame& pg = games[c.game];
  challenge_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - pg.sent).count());
  pg.board = board;
  pg.state = game->initial_state();
  acked[board];
  next(c.game);
}

void Robots::heard(Conn& c, int board, int ply) { heard_plies[{c.index, board}].push_back(ply); }

Robots::StreamCheck Robots::check_streams() const {
  StreamCheck out;
  for (const auto& [key, plies] : heard_plies) {
    ++out.streams;
    std::vector<int> sorted = plies;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 1; i < plies.size(); ++i) out.out_of_order += plies[i] < plies[i - 1];
    for (std::size_t i = 1; i < sorted.size(); ++i) out.twice += sorted[i] == sorted[i - 1];
    const auto distinct = std::unique(sorted.begin(), sorted.end()) - sorted.begin();
    out.missing += sorted.empty() ? 0 : sorted.back() - static_cast<long>(distinct);
  }
  return out;
}

void Robots::on_move(Conn& c, int board, int ply, const std::string& move) {
  if (c.game < 0) return;
  PairGame& pg = games[c.game];
  if (!pg.pending || pg.dead || pg.board != board || ply != pg.expected_ply) return;
  const int mover = pg.state->current_seat() == 0 ? pg.a : pg.b;
  if (mover != c.index) return;
  if (move != pg.expected_move) {
    ++errors;
    std::cerr << "board " << board << ": acknowledged " << move << ", sent " << pg.expected_move
              << "\n";
  }
  pg.pending = false;
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - pg.sent).count();
  latencies_ms.push_back(ms);
  (c.node != conns[pg.a]->node ? latencies_other_ms : latencies_home_ms).push_back(ms);
  ++moves;
  acked[board].push_back(move);
  ++acked_via[board][c.node];
  in_flight.erase(board);  // answered after all, by the table's new owner
  if (pg.first_after_rejoin) {
    pg.first_after_rejoin = false;
    rejoin_s.push_back(std::chrono::duration<double>(Clock::now() - killed_at).count());
  }
  pg.state->apply(pg.state->parse_move(move));
  next(c.game);
}

void Robots::on_closed(Conn& c) {
  if (c.closed) return;
  c.closed = true;
  if (stopping) return;
  ++closed_by_server;
  if (c.game < 0) return;
  PairGame& pg = games[c.game];
  // Dead once both robots have read everything their node sent before it died: an answer
  // may still wait in one robot's socket when the other's sees the end.
  if (pg.dead || !conns[pg.a]->closed || !conns[pg.b]->closed) return;
  pg.dead = true;
  if (pg.pending && pg.expected_ply > 0 && pg.board > 0) {
    in_flight[pg.board] = pg.expected_move;
    ++unanswered_at_kill;
  }
  pg.pending = false;
  if (pg.think) pg.think->cancel();
  check_done();
}

void Robots::rejoin_games(const std::map<int, int>& owner_node) {
  if (stopping) return;
  for (auto& pg : games) {
    auto owner = owner_node.find(pg.board);
    if (!pg.dead || pg.board == 0 || owner == owner_node.end()) continue;
    if (conns[pg.a]->token.empty() || conns[pg.b]->token.empty()) continue;
    ++rejoining;
    pg.resumed = 0;
    for (int i : {pg.a, pg.b}) {
      auto old = conns[i];
      auto c = std::make_shared<Conn>(*this, io, i);
      c->node = owner->second;
      c->name = old->name;
      c->token = old->token;
      c->game = old->game;
      conns[i] = c;
      c->start(endpoints[c->node]);
    }
  }
}

void Robots::on_resumed(Conn& c) {
  if (c.game < 0) return;
  PairGame& pg = games[c.game];
  if (!pg.dead || ++pg.resumed < 2 || stopping) return;
  pg.dead = false;
  pg.first_after_rejoin = true;
  auto f = in_flight.find(pg.board);
  if (f == in_flight.end()) {
    next(c.game);
    return;
  }
  // The move that was in flight, again with its #n: played now, or answered with the
  // original move if the dead node had stored it.
  pg.expected_move = f->second;
  pg.expected_ply = pg.state->ply() + 1;
  pg.pending = true;
  pg.sent = Clock::now();
  const int mover = pg.state->current_seat() == 0 ? pg.a : pg.b;
  conns[mover]->send("move " + std::to_string(pg.board) + " " + pg.expected_move + "#" +
                     std::to_string(pg.expected_ply));
}

void Robots::retry_after_rejoin(int g) {
  PairGame& pg = games[g];
  if (!pg.think) pg.think = std::make_unique<asio::steady_timer>(io);
  pg.think->expires_after(std::chrono::milliseconds(50));
  pg.think->async_wait([this, g](boost::system::error_code ec) {
    PairGame& pg = games[g];
    if (ec || stopping || pg.dead || !pg.pending || pg.expected_ply <= 0) {
      if (stopping) pg.pending = false;
      check_done();
      return;
    }
    const int mover = pg.state->current_seat() == 0 ? pg.a : pg.b;
    conns[mover]->send("move " + std::to_string(pg.board) + " " + pg.expected_move + "#" +
                       std::to_string(pg.expected_ply));
  });
}

void Robots::fail(const std::string& why) {
  ++errors;
  std::cerr << why << "\n";
  end = Clock::now();
  io.stop();
}

void Robots::check_done() {
  if (!stopping) return;
  for (const auto& pg : games) {
    if (pg.pending) return;
  }
  for (auto& c : conns) {
    c->closed = true;
    boost::system::error_code ec;
    c->socket.close(ec);
  }
  io.stop();
}

void Conn::start(const tcp::endpoint& ep) {
  socket.async_connect(ep, [self = shared_from_this()](boost::system::error_code ec) {
    if (ec) {
      self->robots.fail("connect failed: " + ec.message());
      return;
    }
    self->socket.set_option(tcp::no_delay(true));
    self->send(self->token.empty() ? std::string("guest") : "resume " + self->token);
    self->read();
  });
}

void Conn::read() {
  asio::async_read_until(socket, buf, '\n',
                         [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
                           if (ec) {
                             self->robots.on_closed(*self);
                             return;
                           }
                           std::string line(asio::buffers_begin(self->buf.data()),
                                            asio::buffers_begin(self->buf.data()) + n - 1);
                           self->buf.consume(n);
                           self->on_line(line);
                           self->read();
                         });
}

void Conn::send(std::string line) {
  if (closed) return;
  out.push_back(std::move(line) + "\n");
  if (writing) return;
  writing = true;
  auto self = shared_from_this();
  auto write_next = std::make_shared<std::function<void()>>();
  *write_next = [self, write_next] {
    if (self->out.empty()) {
      self->writing = false;
      return;
    }
    asio::async_write(self->socket, asio::buffer(self->out.front()),
                      [self, write_next](boost::system::error_code ec, std::size_t) {
                        if (ec) return;
                        self->out.pop_front();
                        (*write_next)();
                      });
  };
  (*write_next)();
}

void Conn::on_line(const std::string& line) {
  static const std::regex kMove(R"(^(\w+) (\d+): (\d+)\. \S+ \S+ (\S+)$)");
  if (robots.echo) {
    // The same dialogue, each line answered by itself: the login, the challenge, the moves.
    static const std::regex kEchoedMove(R"(^move (\d+) (\S+)#(\d+)$)");
    std::smatch m;
    if (line == "guest") {
      name = "guest" + std::to_string(index + 1);
      robots.logged(*this);
    } else if (line.rfind(robots.game_name + " challenge", 0) == 0) {
      robots.on_new_board(*this, robots.next_board++);
    } else if (std::regex_match(line, m, kEchoedMove)) {
      robots.on_move(*this, std::stoi(m[1]), std::stoi(m[3]), m[2]);
    } else {
      ++robots.errors;
      std::cerr << "echo: unexpected line " << line << "\n";
    }
    return;
  }
  if (line.rfind("Resume token: ", 0) == 0) {
    token = line.substr(14);
    return;
  }
  if (line.rfind("Welcome back, ", 0) == 0) {
    robots.on_resumed(*this);
    return;
  }
  if (line.rfind("Hello, guest", 0) == 0) {
    name = line.substr(7, line.find(' ', 7) - 7);
    robots.logged(*this);
    return;
  }
  if (game >= 0 && robots.games[game].first_after_rejoin &&
      line.rfind("error: no board ", 0) == 0) {
    robots.retry_after_rejoin(game);
    return;
  }
  if (robots.opt.spread && game >= 0 && robots.games[game].a == index &&
      robots.games[game].board == 0 && line.rfind("error: no user named ", 0) == 0) {
    // The other player's node has not told this one of them yet: asked again shortly.
    robots.retry_challenge(game);
    return;
  }
  if (line.rfind("error: ", 0) == 0) {
    // Every move sent is legal and in turn: any error is a failure of the run.
    robots.fail(name + ": " + line);
    return;
  }
  if (line.rfind("New ", 0) == 0 && line.find(" Board ") != std::string::npos) {
    robots.on_new_board(*this, std::stoi(line.substr(line.rfind(' ') + 1)));
    return;
  }
  if (line.size() > 10 && line.rfind(robots.game_name + " ", 0) == 0) {
    std::smatch m;
    if (std::regex_match(line, m, kMove)) {
      robots.heard(*this, std::stoi(m[2]), std::stoi(m[3]));
      robots.on_move(*this, std::stoi(m[2]), std::stoi(m[3]), m[4]);
    }
  }
}

}  // namespace plateau::bench
