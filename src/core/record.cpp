#include "core/record.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/error.h"
#include "core/registry.h"
#include "core/text.h"

namespace plateau {

std::string Record::tag(std::string_view name) const {
  for (const auto& [k, v] : tags) {
    if (k == name) return v;
  }
  return {};
}

void Record::set_tag(const std::string& name, const std::string& value) {
  for (auto& [k, v] : tags) {
    if (k == name) {
      v = value;
      return;
    }
  }
  tags.emplace_back(name, value);
}

namespace {

bool is_result_token(std::string_view token) {
  if (token == "*") return true;
  bool digit = false;
  for (char c : token) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digit = true;
    } else if (c != '-' && c != '/') {
      return false;
    }
  }
  return digit && token.find('-') != std::string_view::npos;
}

bool is_ply_number(std::string_view token) {
  if (token.size() < 2 || token.back() != '.') return false;
  for (std::size_t i = 0; i + 1 < token.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(token[i]))) return false;
  }
  return true;
}

// Parses `[Name "value"]` (the whole trimmed line).
std::pair<std::string, std::string> parse_tag(std::string_view line, int line_no) {
  if (line.back() != ']') throw RecordError(line_no, "tag line must end with ']'");
  std::string_view body = trim(line.substr(1, line.size() - 2));
  std::size_t space = body.find_first_of(" \t");
  if (space == std::string_view::npos) {
    throw RecordError(line_no, "tag must be [Name \"value\"]");
  }
  std::string name(body.substr(0, space));
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') {
      throw RecordError(line_no, "bad tag name '" + name + "'");
    }
  }
  std::string_view rest = trim(body.substr(space));
  if (rest.size() < 2 || rest.front() != '"' || rest.back() != '"') {
    throw RecordError(line_no, "tag " + name + ": value must be in double quotes");
  }
  std::string value;
  for (std::size_t i = 1; i + 1 < rest.size(); ++i) {
    char c = rest[i];
    if (c == '\\' && i + 2 < rest.size()) {
      value += rest[++i];
    } else if (c == '"') {
      throw RecordError(line_no, "tag " + name + ": unescaped '\"' inside the value");
    } else if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f) {
      // A CR inside a line would reach players' screens (seat names) and could not be written
      // back: write_record turns line ends into spaces.
      throw RecordError(line_no, "tag " + name + ": control character " +
                                     std::to_string(static_cast<unsigned char>(c)) +
                                     " in the value");
    } else {
      value += c;
    }
  }
  return {name, value};
}

std::string escape_tag_value(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n' || c == '\r') c = ' ';
    out += c;
  }
  return out;
}

std::string format_return(double r) {
  if (r == 1.0) return "1";
  if (r == 0.0) return "0";
  if (r == 0.5) return "1/2";
  // Shares of n-way draws: 1/3, 1/4.
  for (int d = 3; d <= 8; ++d) {
    for (int n = 1; n < d; ++n) {
      if (std::abs(r - static_cast<double>(n) / d) < 1e-9) {
        return std::to_string(n) + "/" + std::to_string(d);
      }
    }
  }
  return std::to_string(r);
}

int seat_of_label(const Game& game, std::string_view label) {
  for (int s = 0; s < game.num_seats(); ++s) {
    if (to_lower(game.seat_label(s)) == to_lower(label)) return s;
  }
  return -1;
}

}  // namespace

Record parse_record(std::string_view text) {
  Record record;
  int line_no = 0;
  bool in_comment = false;
  int comment_line = 0;
  for (std::string_view raw : split(text, '\n')) {
    ++line_no;
    // Records come from files and uploads: text is validated at the edge (docs/SECURITY.md).
    if (const std::size_t bad = first_invalid_utf8(raw); bad != std::string_view::npos) {
      throw RecordError(line_no, "invalid UTF-8 at byte " + std::to_string(bad) + " of the line");
    }
    std::string_view line = trim(raw);
    if (!in_comment && !line.empty() && line.front() == '[') {
      if (!record.moves.empty()) throw RecordError(line_no, "tag after the moves");
      auto [name, value] = parse_tag(line, line_no);
      for (const auto& [k, v] : record.tags) {
        if (k == name) throw RecordError(line_no, "tag " + name + " given twice");
      }
      record.tags.emplace_back(std::move(name), std::move(value));
      continue;
    }
    std::string cleaned;
    for (char c : line) {
      if (in_comment) {
        if (c == '}') in_comment = false;
        cleaned += ' ';
      } else if (c == '{') {
        in_comment = true;
        comment_line = line_no;
        cleaned += ' ';
      } else {
        cleaned += c;
      }
    }
    for (std::string_view token : split_ws(cleaned)) {
      if (token.front() == ';') break;  // rest of the line is a comment
      // "12.H11" carries its number attached.
      std::size_t dot = token.find('.');
      if (dot != std::string_view::npos && dot + 1 < token.size() &&
          is_ply_number(token.substr(0, dot + 1))) {
        token = token.substr(dot + 1);
      }
      if (is_ply_number(token) || is_result_token(token)) continue;
      RecordToken entry;
      entry.line = line_no;
      std::size_t colon = token.find(':');
      if (colon != std::string_view::npos) {
        entry.seat = std::string(token.substr(0, colon));
        entry.move = std::string(token.substr(colon + 1));
        if (entry.seat.empty() || entry.move.empty()) {
          throw RecordError(line_no, "bad entry '" + std::string(token) +
                                         "': expected SEAT:MOVE such as A:S4");
        }
      } else {
        entry.move = std::string(token);
      }
      record.moves.push_back(std::move(entry));
    }
  }
  if (in_comment) throw RecordError(comment_line, "comment '{' is never closed");
  if (record.tag("Game").empty()) throw RecordError(1, "missing [Game \"...\"] tag");
  return record;
}

ReplayedGame replay_record(const Record& record) {
  ReplayedGame out;
  int game_line = 1;
  try {
    out.game = make_game(record.tag("Game"), record.tag("Options"));
  } catch (const OptionError& e) {
    throw RecordError(game_line, e.what());
  }
  const std::string position = record.tag("Position");
  try {
    out.initial = position.empty() ? out.game->initial_state() : out.game->parse_state(position);
  } catch (const RuleError& e) {
    throw RecordError(game_line, std::string("bad Position tag: ") + e.what());
  }
  const std::string seats_tag = record.tag("Seats");  // split() views into it
  for (std::string_view name : split(seats_tag, ',')) {
    if (!trim(name).empty()) out.seats.emplace_back(trim(name));
  }
  out.state = out.initial->clone();
  const Game& game = *out.game;
  int move_number = 0;
  // Seats skipped by the last move (the same seat or a later one moved next): each may appear
  // once as a "X:pass" entry; any other pass entry is not forced.
  std::vector<int> skipped;
  for (const RecordToken& token : record.moves) {
    const int to_move = out.state->current_seat();
    if (!token.seat.empty()) {
      int seat = seat_of_label(game, token.seat);
      if (seat < 0) {
        std::vector<std::string> labels;
        for (int s = 0; s < game.num_seats(); ++s) labels.push_back(game.seat_label(s));
        throw RecordError(token.line, "unknown seat '" + token.seat + "'; seats are " +
                                          join(labels, ", "));
      }
      if (seat != to_move) {
        if (to_lower(token.move) == "pass") {
          auto it = std::find(skipped.begin(), skipped.end(), seat);
          if (it == skipped.end()) {
            throw RecordError(token.line, token.seat + ":pass is not a forced pass: " +
                                              (to_move == kTerminalSeat
                                                   ? std::string("the game is over")
                                                   : game.seat_label(to_move) + " is to move"));
          }
          skipped.erase(it);
          continue;
        }
        throw RecordError(token.line,
                          "entry " + token.seat + ":" + token.move + " but " +
                              (to_move == kTerminalSeat ? std::string("the game is over")
                                                        : game.seat_label(to_move) + " is to move"));
      }
    }
    ++move_number;
    Move move;
    try {
      move = out.state->parse_move(token.move);
    } catch (const RuleError& e) {
      throw RecordError(token.line, "move " + std::to_string(move_number) + " (" + token.move +
                                        ") is illegal: " + e.what());
    }
    out.state->apply(move);
    out.moves.push_back(std::move(move));
    skipped.clear();
    const int next = out.state->current_seat();
    if (next != kTerminalSeat) {
      for (int s = (to_move + 1) % game.num_seats(); s != next; s = (s + 1) % game.num_seats()) {
        skipped.push_back(s);
      }
      if (next == to_move) {
        skipped.clear();
        for (int s = 0; s < game.num_seats(); ++s) {
          if (s != to_move) skipped.push_back(s);
        }
      }
    }
  }
  const std::string result = record.tag("Result");
  // A seat that resigned a game of 3+ seats played on by computer (the server's Resigned
  // tag): its result is not the board's.
  if (out.state->is_terminal() && !result.empty() && result != "*" && record.tag("Resigned").empty() &&
      result != result_string(*out.state)) {
    throw RecordError(0, "Result tag says " + result + " but the moves end in " +
                             result_string(*out.state));
  }
  return out;
}

ReplayedGame load_record(std::string_view text) { return replay_record(parse_record(text)); }

std::string result_string(const State& state) {
  if (!state.is_terminal()) return "*";
  std::vector<std::string> parts;
  for (double r : state.returns()) parts.push_back(format_return(r));
  return join(parts, "-");
}

std::string write_record(const State& initial, const std::vector<Move>& moves,
                         const RecordHeader& header) {
  const Game& game = *initial.game();
  auto state = initial.clone();
  std::vector<std::string> tokens;
  const bool prefixed = game.record_style() == RecordStyle::kSeatPrefixed;
  int ply = initial.ply();
  for (const Move& move : moves) {
    const int mover = state->current_seat();
    std::string text = state->move_to_string(move);
    ++ply;
    if (prefixed) {
      tokens.push_back(game.seat_label(mover) + ":" + text);
    } else {
      tokens.push_back(std::to_string(ply) + ". " + text);
    }
    state->apply(move);
    if (prefixed && game.num_seats() == 2 && state->current_seat() == mover) {
      tokens.push_back(game.seat_label(1 - mover) + ":pass");
    }
  }

  std::string out;
  auto tag = [&out](const std::string& name, const std::string& value) {
    out += "[" + name + " \"" + escape_tag_value(value) + "\"]\n";
  };
  tag("Game", game.name());
  if (!game.options_string().empty()) tag("Options", game.options_string());
  if (!initial.equals(*game.initial_state())) tag("Position", initial.serialize());
  if (!header.seats.empty()) tag("Seats", join(header.seats, ","));
  if (!header.date.empty()) tag("Date", header.date);
  tag("Result", header.result.empty() ? result_string(*state) : header.result);
  bool has_termination = false;
  for (const auto& [k, v] : header.extra_tags) {
    tag(k, v);
    has_termination = has_termination || k == "Termination";
  }
  // A game the rules ended in an unusual way says how (State::termination), unless the header
  // already did.
  if (!has_termination && header.result.empty() && !state->termination().empty()) {
    tag("Termination", state->termination());
  }

  std::string line;
  for (const std::string& token : tokens) {
    if (!line.empty() && line.size() + 1 + token.size() > 79) {
      out += line + "\n";
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += token;
  }
  if (!line.empty()) out += line + "\n";
  return out;
}

}  // namespace plateau
