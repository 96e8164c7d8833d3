#include "compat/biloba/click_game.h"

#include <thread>

#include "games/biloba/biloba_board.h"

namespace plateau::biloba::net {

namespace {

std::string seat_display_name(const std::vector<std::string>& names, int seat) {
  if (seat >= 0 && seat < static_cast<int>(names.size()) && !names[seat].empty()) {
    return names[seat];
  }
  return "Player " + std::to_string(seat + 1);
}

// Everything removed, as the original does when a player leaves (§11.4).
Position emptied(Position pos) {
  for (auto& c : pos.cell) {
    if (c < kMaxColours) c = kEmpty;
  }
  renumber(pos);
  return pos;
}

void finish(GameOutcome& out, const ClickMachine& m, const std::vector<std::string>& names) {
  out.turns = m.turns();
  if (out.left_seat >= 0) {
    out.final_board = emptied(m.board());
    out.message = seat_display_name(names, out.left_seat) + " leaves";
    return;
  }
  out.final_board = m.board();
  out.finished = m.over();
  if (out.finished) out.message = result_message(out.final_board, names);
}

void record(GameOutcome& out, int seat, int square) {
  out.clicks.records.push_back({seat, x_of(square), y_of(square)});
}

}  // namespace

int BotInput::next_click(const ClickMachine& machine) {
  if (delay_.count() > 0) std::this_thread::sleep_for(delay_);
  return player_.next_click(machine);
}

std::string result_message(const Position& final_board, const std::vector<std::string>& names) {
  if (board_empty(final_board)) return "";
  const int w = winner(final_board);
  if (w < 0) return "Draw";
  return seat_display_name(names, w) + " wins !";
}

GameOutcome play_local_game(const Position& start, const std::vector<std::string>& names,
                            const std::vector<SeatInput*>& inputs, bool pass_when_stuck,
                            const GameHooks& hooks) {
  GameOutcome out;
  out.clicks.names = names;
  ClickMachine m(start, pass_when_stuck);
  std::size_t announced = static_cast<std::size_t>(-1);
  while (!m.over()) {
    const int seat = m.asked();
    if (hooks.on_turn && announced != m.turns().size()) {
      announced = m.turns().size();
      hooks.on_turn(m, seat);
    }
    const int square = inputs.at(seat)->next_click(m);
    if (square < 0 || square >= kSquares) {
      out.left_seat = seat;
      break;
    }
    record(out, seat, square);
    const ClickEffect e = m.click_square(square);
    if (hooks.on_click) hooks.on_click(m, seat, square, e);
  }
  finish(out, m, names);
  return out;
}

GameOutcome play_network_game(LegacyClient& client, const std::vector<std::string>& names,
                              const std::map<int, SeatInput*>& local, const GameHooks& hooks) {
  GameOutcome out;
  out.clicks.names = names;
  ClickMachine m(start_position(client.players()), /*pass_when_stuck=*/false);
  std::size_t announced = static_cast<std::size_t>(-1);
  std::vector<int> local_seats;
  for (const auto& [seat, input] : local) local_seats.push_back(seat);
  auto drain_chat = [&]() {
    while (auto line = client.poll_chat(std::chrono::milliseconds(0))) {
      if (hooks.on_chat && line->first != client.seat()) hooks.on_chat(line->first, line->second);
    }
  };
  while (!m.over()) {
    const int seat = m.asked();
    if (hooks.on_turn && announced != m.turns().size()) {
      announced = m.turns().size();
      hooks.on_turn(m, seat);
    }
    drain_chat();
    int square = -1;
    auto it = local.find(seat);
    if (it != local.end()) {
      square = it->second->next_click(m);
      if (square < 0 || square >= kSquares) {
        client.quit(local_seats);
        out.left_seat = seat;
        break;
      }
      client.send_click(seat, x_of(square), y_of(square));
    } else {
      const auto [x, y] = client.receive_click(seat);
      if (x < 0 || x > 8 || y < 0 || y > 8) {  // (−2, −2) or a protocol error: a peer left
        out.left_seat = seat;
        client.close();
        break;
      }
      square = square_of(x, y);
    }
    record(out, seat, square);
    const ClickEffect e = m.click_square(square);
    if (hooks.on_click) hooks.on_click(m, seat, square, e);
  }
  drain_chat();
  if (m.over()) client.close();  // a normal end closes the socket; the server sees EOF
  finish(out, m, names);
  return out;
}

GameOutcome replay_game(const BlbGame& game, std::chrono::milliseconds delay,
                        const GameHooks& hooks) {
  GameOutcome out;
  out.clicks = game;
  const int players = static_cast<int>(game.names.size());
  ClickMachine m(start_position(players), /*pass_when_stuck=*/false);
  std::size_t next = 0;
  std::size_t announced = static_cast<std::size_t>(-1);
  while (!m.over()) {
    const int seat = m.asked();
    if (hooks.on_turn && announced != m.turns().size()) {
      announced = m.turns().size();
      hooks.on_turn(m, seat);
    }
    while (next < game.records.size() && game.records[next].x == kRetryCoord &&
           game.records[next].y == kRetryCoord) {
      ++next;
    }
    if (next >= game.records.size() || game.records[next].seat != seat ||
        game.records[next].x < 0) {
      out.left_seat = seat;
      break;
    }
    if (delay.count() > 0) std::this_thread::sleep_for(delay);
    const BlbRecord& r = game.records[next++];
    const int square = square_of(r.x, r.y);
    const ClickEffect e = m.click_square(square);
    if (hooks.on_click) hooks.on_click(m, seat, square, e);
  }
  finish(out, m, game.names);
  return out;
}

}  // namespace plateau::biloba::net
