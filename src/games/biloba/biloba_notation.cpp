#include "games/biloba/biloba_notation.h"

#include <cctype>
#include <charconv>

#include "core/error.h"
#include "core/text.h"

namespace plateau::biloba {

std::string turn_token(const Move& move) {
  std::string out;
  std::size_t i = 0;
  if (move.empty()) return out;
  switch (move[0]) {
    case kCodePass:
      return "pass";
    case kCodeOut:
      return "out";
    case kCodeX:
      out = "x";
      i = 1;
      break;
    default: {
      const bool walk = move.size() >= 3 && move[1] == kCentre;
      out = square_name(move[0]);
      out += '-';
      out += square_name(move[1]);
      if (walk) {
        out += '-';
        out += square_name(move[2]);
      }
      i = walk ? 3 : 2;
    }
  }
  for (; i + 1 < move.size(); i += 2) {
    out += '/';
    out += square_name(move[i]);
    out += '-';
    out += square_name(move[i + 1]);
  }
  if (i < move.size() && move[i] == kCodePlusOut) out += "+out";
  return out;
}

namespace {

[[noreturn]] void bad_token(std::string_view text, const std::string& why) {
  throw RuleError("'" + std::string(text) + "' is not a turn token: " + why);
}

// "a-b" or "a-b-c" → squares; throws naming the bad square.
std::vector<int> parse_squares(std::string_view whole, std::string_view part) {
  std::vector<int> squares;
  for (std::string_view name : split(part, '-')) {
    auto sq = parse_square(name);
    if (!sq) {
      bad_token(whole, name.empty() ? std::string("a square is missing")
                                    : "'" + std::string(name) + "' is not a square (a1..i9)");
    }
    if (!is_playable(*sq)) bad_token(whole, square_name(*sq) + " is not a playable square");
    squares.push_back(*sq);
  }
  return squares;
}

}  // namespace

TokenSyntax parse_token_syntax(std::string_view text) {
  const std::string lower = to_lower(trim(text));
  if (lower.empty()) throw RuleError("empty turn token: expected a move such as e7-e6");
  TokenSyntax out;
  std::string_view rest = lower;
  if (rest.size() >= 4 && rest.substr(rest.size() - 4) == "+out") {
    out.plus_out = true;
    rest = rest.substr(0, rest.size() - 4);
  }
  const std::vector<std::string_view> parts = split(rest, '/');
  const std::string_view body = parts[0];
  if (body == "x") {
    out.body = TokenSyntax::Body::kX;
  } else if (body == "out" || body == "pass") {
    out.body = body == "out" ? TokenSyntax::Body::kOut : TokenSyntax::Body::kPass;
    if (parts.size() > 1) bad_token(lower, std::string(body) + " has no refills");
  } else {
    out.squares = parse_squares(lower, body);
    if (out.squares.size() < 2) bad_token(lower, "a move needs two squares, e.g. e7-e6");
    if (out.squares.size() > 3) bad_token(lower, "a move is one step, one jump or one centre walk");
    if (out.squares.size() == 3 && out.squares[1] != kCentre) {
      bad_token(lower, "a three-square move must pass through e5 (a centre walk such as d6-e5-f5)");
    }
  }
  if (out.plus_out && out.body != TokenSyntax::Body::kX) {
    bad_token(lower, "+out only follows x (eliminated after forced captures)");
  }
  for (std::size_t i = 1; i < parts.size(); ++i) {
    std::vector<int> pair = parse_squares(lower, parts[i]);
    if (pair.size() != 2) bad_token(lower, "a refill is two squares, e.g. c4-d4");
    out.refills.emplace_back(pair[0], pair[1]);
  }
  return out;
}

std::string format_position(const Position& pos, int turns) {
  std::string out;
  for (int y = 0; y < kSize; ++y) {
    if (y > 0) out += '/';
    for (int x = 0; x < kSize; ++x) {
      const int sq = square_of(x, y);
      const std::uint8_t c = pos.cell[sq];
      out += c == kWall ? '#' : c < kMaxColours ? colour_label(c) : sq == kCentre ? '*' : '.';
    }
  }
  out += ' ';
  out += colour_label(pos.to_move);
  out += ' ';
  out += std::to_string(pos.players);
  if (turns >= 0) {
    out += ' ';
    out += std::to_string(turns);
  }
  return out;
}

Position parse_position(std::string_view text, int players, bool allow_turns) {
  const std::vector<std::string_view> fields = split_ws(text);
  auto fail = [&](const std::string& why) -> void {
    throw RuleError("bad Biloba position '" + std::string(trim(text)) + "': " + why);
  };
  if (fields.size() < 3 || fields.size() > 4) {
    fail(
        "expected 9 rows joined by '/', the colour to move and the number of players, e.g. "
        "'##..O..##/.../##..B..## O 2'");
  }
  const std::string_view players_field = fields[2];
  if (players_field.size() != 1 || players_field[0] < '2' || players_field[0] > '4') {
    fail("the number of players must be 2, 3 or 4");
  }
  if (players_field[0] - '0' != players) {
    fail("it is a " + std::string(players_field) + "-player position and this game has " +
         std::to_string(players) + " players");
  }
  Position pos = empty_position(players);
  const std::vector<std::string_view> rows = split(fields[0], '/');
  if (rows.size() != 9)
    fail("expected 9 rows separated by '/', got " + std::to_string(rows.size()));
  for (int y = 0; y < kSize; ++y) {
    if (rows[y].size() != 9) {
      fail("rank " + std::to_string(9 - y) + " has " + std::to_string(rows[y].size()) +
           " cells, expected 9");
    }
    for (int x = 0; x < kSize; ++x) {
      const int sq = square_of(x, y);
      const char ch = rows[y][x];
      const std::string where = "square " + square_name(sq);
      if (!is_playable(sq)) {
        if (ch != '#') fail(where + " is not playable and must be '#'");
        continue;
      }
      if (ch == '#') fail(where + " is playable and cannot be '#'");
      if (ch == '*' || ch == '.') {
        if ((ch == '*') != (sq == kCentre)) {
          fail(sq == kCentre ? "the empty centre e5 is written '*'" : "'*' is only for e5");
        }
        continue;
      }
      const int colour = colour_of_label(ch);
      if (colour < 0) fail(where + ": '" + std::string(1, ch) + "' is not one of # * . O B R G");
      if (colour >= players) {
        fail(where + ": " + colour_name(colour) + " does not play with " + std::to_string(players) +
             " players");
      }
      if (sq == kCentre) fail("a pawn never rests on the centre e5 between turns");
      pos.cell[sq] = static_cast<std::uint8_t>(colour);
    }
  }
  renumber(pos);
  const int max_pawns = players == 2 ? 16 : 8;
  for (int s = 0; s < players; ++s) {
    if (pos.count[s] > max_pawns) {
      fail(colour_name(s) + " has " + std::to_string(pos.count[s]) + " pawns, at most " +
           std::to_string(max_pawns) + " with " + std::to_string(players) + " players");
    }
  }
  const std::string_view mover = fields[1];
  const int colour = mover.size() == 1 ? colour_of_label(mover[0]) : -1;
  if (colour < 0 || colour >= players) {
    fail("the colour to move must be one of " + std::string("OBRG").substr(0, players));
  }
  pos.to_move = colour;
  if (fields.size() == 4) {
    if (!allow_turns) fail("a turn count is only written when the game has a turn_cap");
    int turns = -1;
    const std::string_view t = fields[3];
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), turns);
    if (ec != std::errc() || end != t.data() + t.size() || turns < 0) {
      fail("the turn count must be a whole number >= 0");
    }
    pos.turns = turns;
  }
  return pos;
}

}  // namespace plateau::biloba
