#include "ai/bot.h"

#include "core/error.h"
#include "core/random.h"
#include "core/text.h"

namespace plateau {

namespace {

class RandomBot : public Bot {
 public:
  explicit RandomBot(std::uint64_t seed) : rng_(seed) {}
  std::string name() const override { return "random"; }
  Move choose_move(const State& state) override {
    std::vector<Move> moves = state.legal_moves();
    return moves[rng_.below(static_cast<std::uint32_t>(moves.size()))];
  }

 private:
  Rng rng_;
};

}  // namespace

bool is_bot_name(std::string_view name) { return to_lower(trim(name)) == "random"; }

std::unique_ptr<Bot> make_bot(std::string_view name, std::uint64_t seed) {
  const std::string key = to_lower(trim(name));
  if (key == "random") return std::make_unique<RandomBot>(seed);
  throw OptionError("unknown bot '" + std::string(trim(name)) + "'; bots are: random");
}

}  // namespace plateau
