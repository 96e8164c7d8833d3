#include "games/phutball/phutball_print.h"

#include "games/phutball/phutball_notation.h"

namespace plateau::phutball {

namespace {

constexpr std::size_t kCellWidth = 21;
constexpr std::size_t kMoveWidth = 17;

std::string header_line() {
  std::string out = "   ";
  for (int col = 0; col < kColumns; ++col) {
    out += ' ';
    out += column_letter(col);
  }
  return out + "\n";
}

std::string row_label(int row) {
  std::string label = std::to_string(row);
  return label.size() < 2 ? " " + label : label;
}

// "20                @                20": a row line with every cell blank but the ball's.
std::string off_board_line(int row, int ball_column) {
  std::string cells;
  for (int col = 0; col < kColumns; ++col) {
    if (col) cells += ' ';
    cells += col == ball_column ? '@' : ' ';
  }
  if (ball_column == kColumns) cells += " @";  // corner column Q: a sixteenth cell
  std::string lead = row_label(row) + "  ";
  if (ball_column == -1) lead[3] = '@';  // corner column @: the space just before A
  return lead + cells + "  " + std::to_string(row) + "\n";
}

std::string rstrip(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// `text` padded to a table cell; a longer text keeps one space before the next cell.
std::string pad_cell(const std::string& text) {
  return text.size() < kCellWidth ? text + std::string(kCellWidth - text.size(), ' ') : text + ' ';
}

std::string ply_cell(std::size_t ply, const std::string& move) {
  std::string number = std::to_string(ply);
  if (number.size() < 3) number.insert(0, 3 - number.size(), ' ');
  return number + " " + move;
}

}  // namespace

std::string board_text(const Rules& rules, const Position& pos) {
  const int ball_row = row_of(pos.ball);
  const int ball_col = column_of(pos.ball);
  std::string out = header_line() + "\n";
  if (ball_row == rules.rows + 1) out += off_board_line(ball_row, ball_col);
  for (int row = rules.rows; row >= 1; --row) {
    out += row_label(row) + "  ";
    for (int col = 0; col < kColumns; ++col) {
      const int cell = cell_of(col, row);
      if (col) out += ' ';
      out += cell == pos.ball ? '@' : pos.men[cell] ? '+' : '.';
    }
    out += "  " + std::to_string(row) + "\n";
  }
  if (ball_row == 0) out += off_board_line(0, ball_col);
  return out + "\n" + header_line();
}

std::string move_table(const std::array<std::string, 2>& userids,
                       const std::vector<std::string>& moves, bool whole) {
  std::string out = rstrip(pad_cell("    Ohs (o)") + "    Eks (x)") + "\n";
  out += rstrip(pad_cell("    " + userids[0]) + "    " + userids[1]) + "\n";
  const std::size_t pairs = (moves.size() + 1) / 2;
  const std::size_t first = whole || pairs <= 4 ? 0 : pairs - 4;
  for (std::size_t p = first; p < pairs; ++p) {
    const std::string ohs = ply_cell(2 * p + 1, moves[2 * p]);
    if (2 * p + 1 >= moves.size()) {
      out += rstrip(ohs) + "\n";
      continue;
    }
    const std::string eks = ply_cell(2 * p + 2, moves[2 * p + 1]);
    if (moves[2 * p].size() > kMoveWidth) {
      out += rstrip(ohs) + "\n" + rstrip(std::string(kCellWidth, ' ') + eks) + "\n";
    } else {
      out += rstrip(pad_cell(ohs) + eks) + "\n";
    }
  }
  return out;
}

std::string board_page(const Rules& rules, const Position& pos, Outcome outcome,
                       const PageInfo& info) {
  static constexpr const char* kTitles[] = {"Summary of", "Preview of", "Error in"};
  std::string out = std::string(kTitles[static_cast<int>(info.kind)]) + " Phutball Board " +
                    std::to_string(info.board) + "\n\n";
  std::string status = info.status;
  if (status.empty()) {
    if (outcome == Outcome::kOhsWins || outcome == Outcome::kEksWins) {
      status = "Game won by " + info.userids[outcome == Outcome::kOhsWins ? 0 : 1] + ".";
    } else if (outcome == Outcome::kDraw) {
      status = "Game was a tie.";
    } else if (info.moves.empty()) {
      status = "Please start the game, " + info.userids[0] + ".";
    } else {
      status = "It is " + info.userids[pos.to_move] + "'s turn.";
    }
  }
  out += status + "\n";
  for (const std::string& line : info.rating_lines) out += line + "\n";
  out += '\n';
  out += move_table(info.userids, info.moves, info.ended || outcome != Outcome::kNone);
  out += '\n';
  out += board_text(rules, pos);
  for (const std::string& line : info.trailer_lines) out += line + "\n";
  return out;
}

}  // namespace plateau::phutball
