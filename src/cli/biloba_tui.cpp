#include "cli/biloba_tui.h"

#include <sstream>

#include "core/error.h"
#include "core/text.h"
#include "games/biloba/biloba_board.h"
#include "games/biloba/biloba_notation.h"
#include "games/biloba/biloba_print.h"
#include "compat/biloba/click_player.h"
#include "gui/gui_turns.h"

namespace plateau::cli::biloba_tui {

using namespace plateau::biloba;

std::vector<int> parse_squares(const std::string& text) {
  std::vector<int> out;
  std::string word;
  bool comment = false;
  auto flush = [&]() {
    if (word.empty()) return;
    const auto sq = parse_square(word);
    if (!sq) throw RuleError("'" + word + "' is not a square (a1..i9)");
    out.push_back(*sq);
    word.clear();
  };
  for (char c : text) {
    if (c == '\n') comment = false;
    if (comment) continue;
    if (c == '#') {
      flush();
      comment = true;
    } else if (c == ' ' || c == '-' || c == '/' || c == ',' || c == '\n' || c == '\t' ||
               c == '\r') {
      flush();
    } else {
      word.push_back(c);
    }
  }
  flush();
  return out;
}

namespace {

std::string square_list(const std::vector<int>& squares) {
  std::string out;
  for (int sq : squares) out += (out.empty() ? "" : ", ") + square_name(sq);
  return out;
}

// Why clicking `square` on `m` does nothing useful (the click machine ignored or deselected
// it), in words a player can act on.
std::string refusal(const ClickMachine& m, int square) {
  const gui::ClickHints h = gui::click_hints(m);
  const std::string sq = square_name(square);
  if (h.selected == kCentre) {
    return sq + " is not a free exit of the centre (exits: " + square_list(h.targets) + ")";
  }
  if (h.selected >= 0) {
    const std::string from = square_name(h.selected);
    if (h.targets.empty()) return from + " has no legal move";
    return sq + " is not a legal target of " + from + " (it can go to " + square_list(h.targets) +
           ")";
  }
  if (h.selectable.empty()) return "no click is possible now";
  return sq + " is not one you can select (you can select " + square_list(h.selectable) + ")";
}

}  // namespace

std::string board_view(const ClickMachine& machine, const std::vector<std::string>& names) {
  std::string text = board_text(machine.board(), Outcome::kOngoing, -1, names);
  if (!machine.over()) {
    text += "Up to " + seat_display_name(machine.asked(), names);
    if (machine.selected() >= 0) {
      const gui::ClickHints h = gui::click_hints(machine);
      text += " (selected " + square_name(machine.selected()) +
              (h.targets.empty() ? ": it has no legal move" : ", targets " + square_list(h.targets)) +
              ")";
    }
    text += "\n";
  }
  return text;
}

void TurnPrinter::update(const ClickMachine& machine) {
  while (printed_ < machine.turns().size()) {
    const Position& before = printed_ == 0 ? start_ : machine.turns()[printed_ - 1].after;
    const ClickTurn& t = machine.turns()[printed_++];
    out_ << colour_label(t.seat) << ": " << turn_token(t.token) << "\n";
    // Forced takes, captures and eliminations happen without a click: say so.
    for (const std::string& e : gui::turn_events(t, before, names_, gui::Lang::kEn)) {
      out_ << "  " << e << "\n";
    }
    if (boards_) out_ << board_text(t.after, Outcome::kOngoing, -1, names_);
  }
  out_.flush();
}

std::optional<std::string> check_clicks(const ClickMachine& machine, const std::vector<int>& squares) {
  ClickMachine probe = machine;
  const std::size_t turns = probe.turns().size();
  for (std::size_t i = 0; i < squares.size(); ++i) {
    if (probe.over() || probe.turns().size() != turns) {
      return "the turn ends before " + square_name(squares[i]);
    }
    const ClickMachine before = probe;
    const ClickEffect e = probe.click_square(squares[i]);
    // A lone click on the selected pawn is how a player deselects: that one is fine.
    const bool deselect_asked =
        squares.size() == 1 && e == ClickEffect::kDeselected && squares[0] == before.selected();
    if (e == ClickEffect::kIgnored || (e == ClickEffect::kDeselected && !deselect_asked)) {
      return refusal(before, squares[i]);
    }
  }
  return std::nullopt;
}

int HumanInput::next_click(const ClickMachine& machine) {
  while (queued_.empty()) {
    out_ << board_view(machine, names_) << colour_name(machine.asked()) << "> " << std::flush;
    std::string line;
    if (!std::getline(in_, line)) return -1;
    const std::string cmd = to_lower(trim(line));
    if (cmd.empty()) continue;
    if (cmd == "quit" || cmd == "end" || cmd == "q") return -1;
    if (cmd == "board") continue;
    if (cmd.rfind("help", 0) == 0 || cmd == "?") {
      int page = 1;
      if (cmd.size() > 4) page = std::atoi(cmd.c_str() + 4);
      out_ << help_page(page) << "(help 1.." << help_page_count()
           << "; type squares such as e7-e6, or a whole turn such as f3-e4/c4-d4)\n";
      continue;
    }
    if (cmd == "moves") {
      auto game = biloba::net::legacy_game(start_.players);
      auto state = game->make_state(biloba::net::turn_start(machine, start_));
      if (state->current_seat() != machine.asked()) {
        out_ << "No legal move: type \"end\" to end the game.\n";
        continue;
      }
      std::string all;
      for (const Move& m : state->legal_moves()) {
        all += ' ';
        all += state->move_to_string(m);
      }
      out_ << "Legal turns:" << all << "\n";
      continue;
    }
    if (cmd.rfind("t ", 0) == 0 || cmd.rfind("say ", 0) == 0) {
      if (talk_) {
        talk_(std::string(trim(line.substr(line.find(' ') + 1))));
      } else {
        out_ << "Talk works in network games only.\n";
      }
      continue;
    }
    try {
      std::vector<int> squares = parse_squares(line);
      if (const auto why = check_clicks(machine, squares)) {
        // Nothing of the line is played; a pending selection is dropped (a click on it, as the
        // original deselects) so that the next line starts from a clean turn.
        out_ << "Illegal: " << trim(line) << ": " << *why << ".";
        squares.clear();
        if (machine.selected() >= 0 && machine.selected() != kCentre) {
          squares.push_back(machine.selected());
          out_ << " Selection cleared.";
        }
        out_ << "\n";
      }
      queued_ = std::move(squares);
    } catch (const RuleError& e) {
      out_ << e.what() << " (type help)\n";
    }
  }
  const int sq = queued_.front();
  queued_.erase(queued_.begin());
  return sq;
}

}  // namespace plateau::cli::biloba_tui
