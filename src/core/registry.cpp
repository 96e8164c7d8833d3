#include "core/registry.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "core/error.h"
#include "core/text.h"

namespace plateau {

namespace {

struct Entry {
  GameInfo info;
  GameFactory factory;
};

std::map<std::string, Entry>& entries() {
  static std::map<std::string, Entry> table;
  return table;
}

}  // namespace

void register_game(GameInfo info, GameFactory factory) {
  std::string name = info.name;
  if (!entries().emplace(name, Entry{std::move(info), std::move(factory)}).second) {
    throw std::logic_error("game registered twice: " + name);
  }
}

std::vector<const GameInfo*> registered_games() {
  std::vector<const GameInfo*> out;
  for (const auto& [name, entry] : entries()) out.push_back(&entry.info);
  return out;
}

std::shared_ptr<const Game> make_game(std::string_view name, std::string_view options) {
  std::string key = to_lower(trim(name));
  auto it = entries().find(key);
  if (it == entries().end()) {
    std::vector<std::string> names;
    for (const auto& [n, e] : entries()) names.push_back(n);
    throw OptionError("unknown game '" + std::string(trim(name)) +
                      "'; games are: " + join(names, ", "));
  }
  OptionValues values =
      parse_options(options, it->second.info.options, it->second.info.presets, key);
  return it->second.factory(values);
}

std::shared_ptr<const Game> make_game_with_seats(const GameInfo& info, int seats) {
  if (seats < info.min_seats || seats > info.max_seats) {
    throw OptionError(info.name + " has " + std::to_string(info.min_seats) + " to " +
                      std::to_string(info.max_seats) + " seats, not " + std::to_string(seats));
  }
  if (info.seat_count_option.empty()) return make_game(info.name, "");
  return make_game(info.name, info.seat_count_option + "=" + std::to_string(seats));
}

std::shared_ptr<const Game> make_game(std::string_view spec) {
  std::string_view text = trim(spec);
  auto open = text.find('(');
  if (open == std::string_view::npos) {
    if (text.find(')') != std::string_view::npos) {
      throw OptionError("bad game spec '" + std::string(text) + "': ')' without '('");
    }
    return make_game(text, "");
  }
  if (text.back() != ')') {
    throw OptionError("bad game spec '" + std::string(text) +
                      "': expected name(option=value,...) ending with ')'");
  }
  std::string_view inner = text.substr(open + 1, text.size() - open - 2);
  if (inner.find_first_of("()") != std::string_view::npos) {
    throw OptionError("bad game spec '" + std::string(text) + "': nested parentheses");
  }
  return make_game(text.substr(0, open), inner);
}

}  // namespace plateau
