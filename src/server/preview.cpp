// preview_page (preview.h): moves on a scratch copy, shown as a board page.
#include "server/preview.h"

#include "core/error.h"
#include "core/game.h"
#include "server/board_page.h"
#include "server/command.h"

namespace plateau::server {

std::string preview_page(State& state, PageInput input, const std::vector<std::string>& moves,
                         const std::string& heading) {
  int n = 0;
  for (const auto& text : moves) {
    ++n;
    if (state.is_terminal()) {
      throw CommandError("preview: move " + std::to_string(n) + " '" + text.substr(0, 60) +
                         "' comes after the end of the game");
    }
    const int seat = state.current_seat();
    try {
      const Move move = state.parse_move(text);
      input.moves.push_back({state.move_to_string(move), seat, false});
      state.apply(move);
    } catch (const RuleError& e) {
      throw CommandError("preview: move " + std::to_string(n) + " '" + text.substr(0, 60) +
                         "' is illegal: " + e.what());
    }
  }
  input.title = "Preview of " + heading;
  input.status_line = "This is a preview.";
  input.full_list = true;  // the moves previewed are what the page is for
  return board_page(state, input);
}

Event preview_event(const std::string& game, int board, std::string text, std::string page) {
  nlohmann::json data{{"game", game}, {"text", std::move(text)}};
  if (board > 0) data["board"] = board;
  return Event{"preview", std::move(data), std::move(page)};
}

}  // namespace plateau::server
