#include "games/bohnduell/bohnduell_notation.h"

#include <cctype>
#include <charconv>
#include <vector>

#include "core/error.h"
#include "core/text.h"

namespace plateau::bohnduell {

std::string move_token(int code) {
  return std::string(1, is_supply(code) ? 'S' : 'H') + static_cast<char>('0' + bowl_of(code));
}

std::optional<int> parse_move_token(std::string_view text) {
  text = trim(text);
  // One optional space between letter and digit (§7).
  if (text.size() == 3 && text[1] == ' ') {
    const char buf[2] = {text[0], text[2]};
    return parse_move_token(std::string_view(buf, 2));
  }
  if (text.size() != 2) return std::nullopt;
  const char letter = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  const int d = text[1] - '0';
  if (d < 1 || d > kBowls) return std::nullopt;
  if (letter == 'S') return supply_code(d);
  if (letter == 'H') return harvest_code(d);
  return std::nullopt;
}

std::string format_position(const Position& pos) {
  std::string out;
  for (int seat = 0; seat < 2; ++seat) {
    const Side& s = pos.side[seat];
    out += seat == 0 ? "A[" : " · B[";
    for (int d = 1; d <= kBowls; ++d) {
      if (d > 1) out += ' ';
      out += std::to_string(s.bowl[d]);
    }
    out += "] s" + std::to_string(s.supply) + " S" + std::to_string(s.store);
  }
  out += pos.over ? " · over" : (pos.to_move == 0 ? " · A to move" : " · B to move");
  return out;
}

namespace {

int parse_count(std::string_view token, std::string_view what, int max) {
  int value = -1;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (token.empty() || ec != std::errc() || end != token.data() + token.size() || value < 0 ||
      value > max) {
    throw RuleError("bad " + std::string(what) + " '" + std::string(token) +
                    "': expected a count 0.." + std::to_string(max));
  }
  return value;
}

// Parses "X[b1 b2 b3 b4] sN SM" starting at tokens[i]; advances i.
Side parse_side(const std::vector<std::string_view>& tokens, std::size_t& i, char seat) {
  auto need = [&](std::string_view what) {
    if (i >= tokens.size()) {
      throw RuleError(std::string("position ends early: missing ") + std::string(what) +
                      " of " + seat);
    }
    return tokens[i++];
  };
  Side side;
  std::string_view first = need("bowls");
  const std::string open = std::string(1, seat) + "[";
  if (!starts_with(first, open) && !starts_with(first, std::string(1, std::tolower(seat)) + "[")) {
    throw RuleError("expected " + open + " at '" + std::string(first) + "'");
  }
  first.remove_prefix(2);
  std::vector<std::string_view> bowls;
  std::string_view tok = first;
  for (;;) {
    bool closing = !tok.empty() && tok.back() == ']';
    if (closing) tok.remove_suffix(1);
    if (!tok.empty()) bowls.push_back(tok);
    if (closing) break;
    tok = need("']'");
  }
  if (bowls.size() != kBowls) {
    throw RuleError(std::string("side ") + seat + " needs 4 bowl counts, got " +
                    std::to_string(bowls.size()));
  }
  for (int d = 1; d <= kBowls; ++d) {
    side.bowl[d] = static_cast<std::uint8_t>(parse_count(bowls[d - 1], "bowl count", 2 * kMaxSupply));
  }
  std::string_view supply = need("supply sN");
  if (supply.size() < 2 || supply[0] != 's') {
    throw RuleError("expected supply sN, got '" + std::string(supply) + "'");
  }
  side.supply = static_cast<std::uint8_t>(parse_count(supply.substr(1), "supply", kMaxSupply));
  std::string_view store = need("store SN");
  if (store.size() < 2 || store[0] != 'S') {
    throw RuleError("expected store SN, got '" + std::string(store) + "'");
  }
  side.store = static_cast<std::uint8_t>(parse_count(store.substr(1), "store", 4 * kMaxSupply));
  return side;
}

}  // namespace

Position parse_position(const Rules& rules, std::string_view text) {
  std::vector<std::string_view> tokens;
  for (std::string_view t : split_ws(text)) {
    if (t != "·") tokens.push_back(t);
  }
  std::size_t i = 0;
  Position pos;
  pos.side[0] = parse_side(tokens, i, 'A');
  pos.side[1] = parse_side(tokens, i, 'B');
  std::vector<std::string> tail;
  for (; i < tokens.size(); ++i) tail.push_back(to_lower(tokens[i]));
  const std::string rest = join(tail, " ");
  int to_move = 0;
  if (rest.empty() || rest == "a" || rest == "a to move") {
    to_move = 0;
  } else if (rest == "b" || rest == "b to move") {
    to_move = 1;
  } else if (rest != "over") {
    throw RuleError("expected 'A to move', 'B to move' or 'over' at the end, got '" + rest + "'");
  }
  pos.to_move = static_cast<std::int8_t>(to_move);
  // Normalise: passes are automatic and a finished game is over (§5).
  if (has_legal_move(rules, pos, to_move)) {
    pos.over = false;
  } else if (has_legal_move(rules, pos, 1 - to_move)) {
    pos.to_move = static_cast<std::int8_t>(1 - to_move);
  } else {
    pos.over = true;
    pos.to_move = 0;
  }
  if (rest == "over" && !pos.over) {
    throw RuleError("position marked over but a side still has a legal move");
  }
  return pos;
}

}  // namespace plateau::bohnduell
