#include "server/board_page.h"

#include "core/game.h"
#include "core/text.h"

namespace plateau::server {

namespace {

constexpr std::size_t kCell = 21;  // ply number in 3, a space, the move in 17
constexpr std::size_t kRowsWhileRunning = 4;

void rstrip(std::string& s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
}

// Places `cell` at column `col` of the rows being built; a row that already reaches past the
// column (a long move) pushes the cell to a new row indented to its column.
void place(std::vector<std::string>& rows, bool new_round, std::size_t col,
           const std::string& cell) {
  if (new_round || rows.empty() || rows.back().size() > kCell * col) {
    rows.emplace_back();
  }
  std::string& row = rows.back();
  row.resize(kCell * col, ' ');
  row += cell;
}

std::string cell_text(int ply, const std::string& move) {
  std::string number = std::to_string(ply);
  std::string out(number.size() < 3 ? 3 - number.size() : 0, ' ');
  return out + number + " " + move;
}

}  // namespace

std::string seat_header(const Game& game, int seat) {
  const std::string name = game.seat_name(seat);
  const std::string label = game.seat_label(seat);
  if (to_lower(name) == to_lower(label)) return label;
  return name + " (" + to_lower(label) + ")";
}

std::string board_page(const State& state, const PageInput& in) {
  const Game& game = *state.game();
  const int n = game.num_seats();
  std::string out = in.title + "\n\n" + in.status_line + "\n";
  for (const auto& line : in.rating_lines) out += line + "\n";
  out += "\n";

  // Header: side names, then the players.
  std::string names_row;
  std::string players_row;
  for (int s = 0; s < n; ++s) {
    names_row.resize(kCell * s, ' ');
    names_row += "    " + seat_header(game, s);
    players_row.resize(kCell * s, ' ');
    players_row += "    " + (s < static_cast<int>(in.players.size()) ? in.players[s] : "");
  }
  rstrip(names_row);
  rstrip(players_row);

  // Rounds: a new round starts at seat 0; a seat skipped in the rotation shows "--".
  std::vector<std::vector<std::string>> rounds;  // each round's rows
  int expected = 0;
  int ply = 0;
  for (const PageMove& m : in.moves) {
    ++ply;
    const int seat = (m.seat >= 0 && m.seat < n) ? m.seat : expected;
    while (expected != seat) {
      if (expected == 0) rounds.emplace_back();
      place(rounds.back(), false, static_cast<std::size_t>(expected), "    --");
      expected = (expected + 1) % n;
    }
    if (seat == 0 || rounds.empty()) rounds.emplace_back();
    place(rounds.back(), false, static_cast<std::size_t>(seat),
          cell_text(ply, m.text + (m.automatic ? " (Auto)" : "")));
    expected = (seat + 1) % n;
  }
  std::size_t first = 0;
  if (!in.full_list && rounds.size() > kRowsWhileRunning) first = rounds.size() - kRowsWhileRunning;
  out += names_row + "\n" + players_row + "\n";
  for (std::size_t r = first; r < rounds.size(); ++r) {
    for (std::string row : rounds[r]) {
      rstrip(row);
      out += row + "\n";
    }
  }
  out += "\n";
  out += state.to_text(in.players);
  for (const auto& [user, text] : in.comments) {
    out += "\n" + std::string(72, '*') + "\n" + user + " writes:\n" + text + "\n";
  }
  if (!in.closing_lines.empty()) {
    out += "\n" + std::string(72, '*') + "\n";
    for (const auto& line : in.closing_lines) out += line + "\n";
  }
  return out;
}

std::string board_page(const std::shared_ptr<const PageView>& view) {
  return view ? board_page(*view->shown, view->input) : std::string();
}

}  // namespace plateau::server
