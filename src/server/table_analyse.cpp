// `analyse BOARD[#n] [LEVEL]`, the table's part: the position to search, copied on the strand
// (the lobby runs the search on the workers pool, lobby_analyse.cpp).
#include "core/error.h"
#include "server/analysis.h"
#include "server/table.h"

namespace plateau::server {

void Table::analysis_position(Caller caller, Command c,
                              std::function<void(AnalysisPosition)> reply) {
  boost::asio::post(strand_, [self = shared_from_this(), caller = std::move(caller),
                              c = std::move(c), reply = std::move(reply)] {
    AnalysisPosition out;
    try {
      // Whoever may see the table, finished or not, may analyse it; others learn nothing.
      if (self->discarded_ || self->lost_ || self->fenced_ ||
          !may_reach(self->access(), caller.user)) {
        throw CommandError(unknown_table_error(c));
      }
      if (!self->state_) throw CommandError("the game at " + self->label() + " has not started");
      out.level = analysis_level(c.args.empty() ? kDefaultAnalysisLevel : c.args[0], *self->game_);
      const int played = static_cast<int>(self->moves_.size());
      out.ply = c.ply_check.value_or(played);
      if (out.ply < 0 || out.ply > played) {
        throw CommandError("no ply " + std::to_string(out.ply) + " at " + self->label() +
                           "; plies are 0.." + std::to_string(played));
      }
      std::shared_ptr<State> shown;
      if (out.ply == played) {
        shown = self->state_->clone();
      } else {
        shown = self->initial_->clone();
        for (int i = 0; i < out.ply; ++i)
          shown->apply(self->moves_[static_cast<std::size_t>(i)].move);
      }
      if (shown->is_terminal()) {
        throw CommandError("the game at " + self->label() + " is over at ply " +
                           std::to_string(out.ply) + " (" + shown->result_text() +
                           "): nothing to analyse");
      }
      out.state = std::move(shown);
    } catch (const std::exception& e) {
      out = AnalysisPosition{};
      out.error = e.what();
    }
    reply(std::move(out));
  });
}

}  // namespace plateau::server
