// Queued moves and resignations (issue 12 item 8): a queued move keeps its #n and is played
// only at that ply; undo, an agreed draw and the end of the game cancel every queued move and
// resignation, and their owners are told. Table members declared in table.h.
#include <optional>
#include <string>

#include "core/error.h"
#include "core/text.h"
#include "server/table.h"

namespace plateau::server {

namespace {

// "C3#9" -> {"C3", 9}; "C3" -> {"C3", nullopt}. The parser already split and checked the #n
// when the move was queued; a stored text is trusted only as far as it parses here.
std::pair<std::string, std::optional<int>> split_queued(const std::string& text) {
  const std::size_t hash = text.rfind('#');
  if (hash == std::string::npos || hash + 1 == text.size()) return {text, std::nullopt};
  int n = 0;
  for (std::size_t i = hash + 1; i < text.size(); ++i) {
    const char c = text[i];
    if (c < '0' || c > '9' || i - hash > 9) return {text, std::nullopt};
    n = n * 10 + (c - '0');
  }
  return {text.substr(0, hash), n};
}

Event queued_notice(const std::string& game, int board, const std::string& move,
                    const std::string& what, std::string text) {
  return Event{"queued",
               {{"game", game}, {"board", board}, {"move", move}, {what, true}, {"text", text}},
               {}};
}

}  // namespace

bool Table::play_queued(Tx& tx, const SeatOwner& owner) {
  auto it = queued_.find(to_lower(owner.name));
  if (it == queued_.end()) return false;
  const std::string queued = it->second;
  queued_.erase(it);
  tx.table_changed = true;
  const auto [text, ply] = split_queued(queued);
  const int next_ply = static_cast<int>(moves_.size()) + 1;
  if (ply && *ply != next_ply) {
    tx.user(owner.name,
            queued_notice(game_name_, number_, queued, "dropped",
                          "Your queued move " + queued + " at " + label() +
                              " is dropped: the next move is #" + std::to_string(next_ply) + "."));
    return false;
  }
  try {
    Move m = state_->parse_move(text);
    play(tx, m, state_->current_seat(), true);
  } catch (const RuleError& e) {
    tx.user(owner.name, error_event("your queued move " + text + " at " + label() +
                                    " is illegal now: " + e.what()));
    return false;
  }
  return true;
}

void Table::clear_queued(Tx& tx, const std::string& why) {
  if (queued_.empty() && queued_resign_.empty()) return;
  for (const auto& [user, move] : queued_) {
    tx.user(user, queued_notice(game_name_, number_, move, "cancelled",
                                "Your queued move " + move + " at " + label() +
                                    " is cancelled: " + why + "."));
  }
  for (const auto& user : queued_resign_) {
    tx.user(user,
            queued_notice(game_name_, number_, "resign", "cancelled",
                          "Your queued resignation at " + label() + " is cancelled: " + why + "."));
  }
  queued_.clear();
  queued_resign_.clear();
  tx.table_changed = true;
}

}  // namespace plateau::server
