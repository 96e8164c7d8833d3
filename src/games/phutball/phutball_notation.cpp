#include "games/phutball/phutball_notation.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>

#include "core/error.h"
#include "core/text.h"

namespace plateau::phutball {

namespace {

constexpr std::string_view kLetters = "@ABCDEFGHJKLMNOPQ";  // columns -1..15

[[noreturn]] void bad_coordinate(std::string_view text, const std::string& why) {
  throw RuleError("bad coordinate '" + std::string(text) + "': " + why);
}

// Parses a non-negative decimal number without sign or leading zeros; -1 if it is not one.
long parse_number(std::string_view digits, std::size_t max_digits) {
  if (digits.empty() || digits.size() > max_digits) return -1;
  if (digits.size() > 1 && digits[0] == '0') return -1;
  long value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size()) return -1;
  return value;
}

}  // namespace

char column_letter(int column) { return kLetters[static_cast<std::size_t>(column + 1)]; }

const std::string& point_name(int cell) {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names(kCells);
    for (int c = 0; c < kCells; ++c)
      names[c] = column_letter(column_of(c)) + std::to_string(row_of(c));
    return names;
  }();
  return kNames[static_cast<std::size_t>(cell)];
}

std::string move_text(const std::uint16_t* codes, std::size_t size) {
  std::string out;
  for (std::size_t i = 0; i < size; ++i) {
    if (i) out += '-';
    out += point_name(codes[i]);
  }
  return out;
}

int parse_point(const Rules& rules, std::string_view text) {
  if (text.empty()) bad_coordinate(text, "expected a column letter and a row number");
  const char letter = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  if (letter == 'I') bad_coordinate(text, "there is no column I");
  const std::size_t col = kLetters.find(letter);
  if (col == std::string_view::npos) bad_coordinate(text, "columns are A to P, without I");
  const long row = parse_number(text.substr(1), 2);
  if (row < 0) bad_coordinate(text, "expected a column letter and a row number, as in H10");
  if (row > rules.rows + 1) {
    bad_coordinate(text, "rows are 1 to " + std::to_string(rules.rows) + ", or 0 and " +
                             std::to_string(rules.rows + 1) + " beyond the goal lines");
  }
  return cell_of(static_cast<int>(col) - 1, static_cast<int>(row));
}

std::vector<int> parse_points(const Rules& rules, std::string_view text) {
  std::vector<int> cells;
  for (std::string_view element : split(text, '-')) {
    if (element.empty()) {
      throw RuleError("empty path element in '" + std::string(text) +
                      "': points are joined by single dashes, as in H10-H13-L10");
    }
    cells.push_back(parse_point(rules, element));
  }
  return cells;
}

std::string format_position(const Rules& rules, const Position& pos, int ply,
                            const std::vector<std::uint64_t>& history) {
  std::string out = "ball=" + point_name(pos.ball) + " men=";
  bool first = true;
  for (int cell : rules.points) {
    if (!pos.men[cell]) continue;
    if (!first) out += ',';
    out += point_name(cell);
    first = false;
  }
  out += pos.to_move == kOhs ? " turn=O" : " turn=X";
  out += " ply=" + std::to_string(ply);
  if (rules.repetition != Repetition::kNone) {
    out += " history=";
    for (std::size_t i = 0; i < history.size(); ++i) {
      char hex[17];
      std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(history[i]));
      if (i) out += ',';
      out += hex;
    }
  }
  return out;
}

ParsedPosition parse_position(const Rules& rules, std::string_view text) {
  ParsedPosition out;
  Position& pos = out.pos;
  bool seen[5] = {false, false, false, false, false};
  constexpr std::string_view kFields[5] = {"ball", "men", "turn", "ply", "history"};
  auto fail = [&](const std::string& why) -> void {
    throw RuleError("bad Phutball position '" + std::string(trim(text)) + "': " + why);
  };
  auto point = [&](std::string_view p) {
    try {
      return parse_point(rules, p);
    } catch (const RuleError& e) {
      fail(e.what());
    }
    return 0;
  };
  std::vector<int> men;
  for (std::string_view item : split_ws(text)) {
    const std::size_t eq = item.find('=');
    const std::string name = to_lower(item.substr(0, eq));
    const auto field = std::find(std::begin(kFields), std::end(kFields), name) - kFields;
    if (eq == std::string_view::npos || field == 5) {
      fail("unknown field '" + std::string(item) + "'; fields are ball=, men=, turn=, ply=" +
           (rules.repetition != Repetition::kNone ? ", history=" : ""));
    }
    if (seen[field]) fail("field " + name + " is given twice");
    seen[field] = true;
    const std::string_view value = item.substr(eq + 1);
    switch (field) {
      case 0:
        pos.ball = static_cast<std::int16_t>(point(value));
        break;
      case 1:
        if (!value.empty()) {
          for (std::string_view p : split(value, ',')) men.push_back(point(p));
        }
        break;
      case 2: {
        const std::string t = to_upper(value);
        if (t != "O" && t != "X") fail("turn must be O (Ohs) or X (Eks), not '" + t + "'");
        pos.to_move = t == "O" ? kOhs : kEks;
        break;
      }
      case 3: {
        const long ply = parse_number(value, 9);
        if (ply < 0) fail("ply must be a number of plies, not '" + std::string(value) + "'");
        out.ply = static_cast<int>(ply);
        break;
      }
      default: {
        if (rules.repetition == Repetition::kNone) {
          fail("history is kept only with a repetition option");
        }
        if (value.empty()) break;
        for (std::string_view h : split(value, ',')) {
          std::uint64_t key = 0;
          auto [end, ec] = std::from_chars(h.data(), h.data() + h.size(), key, 16);
          if (h.empty() || h.size() > 16 || ec != std::errc() || end != h.data() + h.size()) {
            fail("bad history key '" + std::string(h) + "'");
          }
          out.history.push_back(key);
        }
      }
    }
  }
  for (int f = 0; f < 4; ++f) {
    if (!seen[f]) fail("missing field " + std::string(kFields[f]) + "=");
  }
  if (rules.repetition != Repetition::kNone && !seen[4]) fail("missing field history=");
  if (rules.landing[pos.ball] == Landing::kNone) {
    fail("the ball cannot be on " + point_name(pos.ball));
  }
  for (int cell : men) {
    if (!on_board(rules, cell)) fail("a man cannot stand on " + point_name(cell));
    if (cell == pos.ball) fail("a man cannot stand on the ball's point " + point_name(cell));
    if (pos.men[cell]) fail("man " + point_name(cell) + " is listed twice");
    pos.men[cell] = 1;
  }
  refresh(pos);
  return out;
}

}  // namespace plateau::phutball
