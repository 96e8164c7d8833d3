#include "gui/gui_menu.h"

#include <charconv>
#include <stdexcept>

namespace plateau::gui {

namespace {

const char* const kLevels[] = {"classic", "1", "2", "3", "4", "5"};

std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(sep, start);
    out.emplace_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return out;
    start = end + 1;
  }
}

}  // namespace

SeatKind next_kind(const SeatKind& kind) {
  if (kind.human) return {false, kLevels[0]};
  for (std::size_t i = 0; i + 1 < std::size(kLevels); ++i) {
    if (kind.bot == kLevels[i]) return {false, kLevels[i + 1]};
  }
  return {};
}

std::string kind_label(const SeatKind& kind, Lang lang) {
  if (kind.human) return text(lang, Text::kHuman);
  if (kind.bot == "classic") return text(lang, Text::kCpuClassic);
  if (kind.bot.size() == 1 && kind.bot[0] >= '1' && kind.bot[0] <= '5') {
    return std::string(text(lang, Text::kCpuLevel)) + " " + kind.bot;
  }
  return "CPU " + kind.bot;
}

MenuState::MenuState(Lang lang) {
  for (int s = 0; s < 4; ++s) names.push_back(std::string(text(lang, Text::kPlayerN)) + " " +
                                              std::to_string(s + 1));
  // The original's default is Human against Human; a CPU opponent is what a lone player wants.
  seats[1] = {false, "classic"};
  seats[2] = {false, "classic"};
  seats[3] = {false, "classic"};
}

MenuAction menu_click(MenuState& menu, const MenuLayout& l, int px, int py) {
  menu.editing_name = -1;
  if (l.icons.help.contains(px, py)) return MenuAction::kHelp;
  if (l.icons.lang.contains(px, py)) return MenuAction::kLang;
  if (l.players.contains(px, py)) {
    menu.players = menu.players == 4 ? 2 : menu.players + 1;
    return MenuAction::kChanged;
  }
  for (int s = 0; s < menu.players; ++s) {
    if (l.seat_kind[s].contains(px, py)) {
      menu.seats[s] = next_kind(menu.seats[s]);
      return MenuAction::kChanged;
    }
    if (l.seat_row[s].contains(px, py)) {
      menu.editing_name = s;
      return MenuAction::kEditName;
    }
  }
  if (l.server.contains(px, py)) return MenuAction::kEditServer;
  for (std::size_t i = 0; i < l.lan_rows.size() && i < menu.lan_servers.size(); ++i) {
    if (l.lan_rows[i].contains(px, py)) {
      menu.server = menu.lan_servers[i];
      return MenuAction::kChanged;
    }
  }
  if (l.create.contains(px, py)) return MenuAction::kCreate;
  if (l.join.contains(px, py)) return MenuAction::kJoin;
  if (l.play.contains(px, py)) return MenuAction::kPlay;
  if (l.save_last.contains(px, py)) return MenuAction::kSaveLast;
  return MenuAction::kNone;
}

std::optional<SeatKind> parse_seat_kind(std::string_view w) {
  if (w == "human") return SeatKind{};
  if (w == "cpu" || w == "classic") return SeatKind{false, "classic"};
  if (w == "random" || w == "greedy") return SeatKind{false, std::string(w)};
  if (w.size() == 1 && w[0] >= '1' && w[0] <= '5') return SeatKind{false, std::string(w)};
  return std::nullopt;
}

StartSpec parse_start_spec(std::string_view spec) {
  StartSpec out;
  if (spec == "help") {
    out.kind = StartSpec::Kind::kHelp;
    return out;
  }
  const std::size_t colon = spec.find(':');
  if (colon == std::string_view::npos) {
    throw std::invalid_argument("--start: '" + std::string(spec) +
                                "' is not local:SEATS, create:NAME, join:ID or help");
  }
  const std::string_view what = spec.substr(0, colon), rest = spec.substr(colon + 1);
  if (what == "local") {
    out.kind = StartSpec::Kind::kLocal;
    for (const std::string& w : split(rest, ',')) {
      const auto kind = parse_seat_kind(w);
      if (!kind) {
        throw std::invalid_argument("--start: seat '" + w +
                                    "' is not human, classic, cpu, random, greedy or 1..5");
      }
      out.seats.push_back(*kind);
    }
    if (out.seats.size() < 2 || out.seats.size() > 4) {
      throw std::invalid_argument("--start: a local game has 2, 3 or 4 seats");
    }
  } else if (what == "create") {
    out.kind = StartSpec::Kind::kCreate;
    out.name = std::string(rest);
    if (out.name.empty()) throw std::invalid_argument("--start: create needs a game name");
  } else if (what == "join") {
    out.kind = StartSpec::Kind::kJoin;
    const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), out.id);
    if (ec != std::errc() || end != rest.data() + rest.size() || out.id < 0) {
      throw std::invalid_argument("--start: join needs a game id (a number)");
    }
  } else {
    throw std::invalid_argument("--start: '" + std::string(what) +
                                "' is not local, create, join or help");
  }
  return out;
}

}  // namespace plateau::gui
