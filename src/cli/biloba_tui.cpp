#include "cli/biloba_tui.h"

#include <sstream>

#include "core/error.h"
#include "core/text.h"
#include "games/biloba/biloba_board.h"
#include "games/biloba/biloba_notation.h"
#include "games/biloba/biloba_print.h"
#include "compat/biloba/click_player.h"

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

std::string board_view(const ClickMachine& machine, const std::vector<std::string>& names) {
  std::string text = board_text(machine.board(), Outcome::kOngoing, -1, names);
  if (!machine.over()) {
    text += "Up to " + seat_display_name(machine.asked(), names);
    if (machine.selected() >= 0) text += " (selected " + square_name(machine.selected()) + ")";
    text += "\n";
  }
  return text;
}

void TurnPrinter::update(const ClickMachine& machine) {
  while (printed_ < machine.turns().size()) {
    const ClickTurn& t = machine.turns()[printed_++];
    out_ << colour_label(t.seat) << ": " << turn_token(t.token) << "\n";
    if (boards_) out_ << board_text(t.after, Outcome::kOngoing, -1, names_);
  }
  out_.flush();
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
      for (const Move& m : state->legal_moves()) all += " " + state->move_to_string(m);
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
      queued_ = parse_squares(line);
    } catch (const RuleError& e) {
      out_ << e.what() << " (type help)\n";
    }
  }
  const int sq = queued_.front();
  queued_.erase(queued_.begin());
  return sq;
}

}  // namespace plateau::cli::biloba_tui
