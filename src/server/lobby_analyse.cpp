// `analyse [GAME] BOARD[#n] [LEVEL]` (issue 17 item 7; docs/PROTOCOL.md): who may ask is
// checked here (logged in, the table reachable, the user's bounds: analysis_gate.h), the table
// copies the position on its strand, and the search runs on the workers pool, never on an I/O
// thread or a table's strand. The answer is the command's reply: the client's next command
// waits for it (at most the movetime cap), so a WebSocket answer carries the command's id.
#include <spdlog/spdlog.h>

#include <chrono>

#include "server/analysis.h"
#include "server/lobby.h"
#include "server/lobby_ctx.h"

namespace plateau::server {

namespace {

std::int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

void Lobby::cmd_analyse(Ctx& ctx, const Command& c) {
  if (ctx.client->user.empty()) {
    throw CommandError("log in first: login NAME PASSWORD, register NAME PASSWORD or guest");
  }
  auto table = resolve_board(ctx, c);
  AnalysisGate::Ticket ticket = analyses_.admit(ctx.client->user, steady_ms());
  ctx.deferred = true;
  auto client = ctx.client;
  auto done = ctx.done;
  const std::int64_t movetime = limits_.analysis_movetime_ms;
  boost::asio::thread_pool& workers = workers_;
  const std::string game = table->game_name();
  const int board = table->number();
  table->analysis_position(
      ctx.caller(), c,
      [client, done, ticket, movetime, &workers, game, board](Table::AnalysisPosition p) mutable {
        if (!p.error.empty()) {
          ticket.reset();
          client->send(error_event(p.error), true);
          if (done) done();
          return;
        }
        AnalysisRequest request{std::move(p.state), game, board, p.ply, p.level, movetime};
        boost::asio::post(workers, [client, done, ticket, request = std::move(request)]() mutable {
          Event answer;
          try {
            answer = analyse_position(request);
          } catch (const std::exception& e) {
            spdlog::error("analyse {} {} at ply {}: {}", request.game, request.board, request.ply,
                          e.what());
            answer = error_event(std::string("the analysis failed: ") + e.what());
          }
          // The slot is free before the client may send its next command.
          ticket.reset();
          client->send(answer, true);
          if (done) done();
        });
      });
}

}  // namespace plateau::server
