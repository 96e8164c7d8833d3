// Biloba's repetition hooks (core/state.h, docs/AI.md "Repetition"): the positions of the game
// since the last turn that removed a pawn, kept as an immutable list that clones share, so a bot
// searching a clone on another thread never sees the table's list change under it.
#include "core/zobrist.h"
#include "games/biloba/biloba_eval.h"
#include "games/biloba/biloba_game.h"

namespace plateau::biloba {

struct BilobaState::HistoryNode {
  std::uint64_t key = 0;
  int length = 1;  // nodes from this one to the end of the list
  std::shared_ptr<const HistoryNode> older;
};

namespace {

// A list longer than this is cut to its newest kKeep keys (amortised: one copy of kKeep keys
// every kKeep turns), which bounds its memory and the depth of its recursive destruction.
constexpr int kMaxLength = 1024;
constexpr int kKeep = 512;

// The cells and the seat to move: the turn counters change nothing in how play goes on.
const ZobristTable& keys() {
  static const ZobristTable kKeys(kSquares + 1, kMaxColours, 0x5E9EA7ED8B110BAull);
  return kKeys;
}

std::uint64_t key_of(const Position& pos) {
  std::uint64_t h = 0;
  for (int sq = 0; sq < kSquares; ++sq) {
    if (pos.cell[sq] < kMaxColours) h ^= keys().key(sq, pos.cell[sq]);
  }
  return h ^ keys().key(kSquares, static_cast<std::size_t>(pos.to_move));
}

}  // namespace

void BilobaState::note_turn(std::uint64_t before_key, bool removed_pawn) {
  if (removed_pawn) {
    history_.reset();  // a capture or an elimination: no earlier position can recur
    return;
  }
  std::shared_ptr<const HistoryNode> older = history_;
  if (older && older->length >= kMaxLength) {
    std::vector<std::uint64_t> keep;
    for (const HistoryNode* n = older.get(); n && static_cast<int>(keep.size()) < kKeep;
         n = n->older.get()) {
      keep.push_back(n->key);
    }
    older.reset();
    for (auto it = keep.rbegin(); it != keep.rend(); ++it) {
      older = std::make_shared<const HistoryNode>(
          HistoryNode{*it, older ? older->length + 1 : 1, older});
    }
  }
  history_ = std::make_shared<const HistoryNode>(
      HistoryNode{before_key, older ? older->length + 1 : 1, std::move(older)});
}

void BilobaState::refresh_key() { key_ = key_of(pos_); }

void BilobaState::slide_key(int from, int to, int colour, int old_seat) {
  const auto c = static_cast<std::size_t>(colour);
  key_ ^= keys().key(from, c) ^ keys().key(to, c) ^
          keys().key(kSquares, static_cast<std::size_t>(old_seat)) ^
          keys().key(kSquares, static_cast<std::size_t>(pos_.to_move));
}

std::uint64_t BilobaState::repetition_key() const { return key_; }

std::vector<std::uint64_t> BilobaState::earlier_positions() const {
  std::vector<std::uint64_t> keys;
  for (const HistoryNode* n = history_.get(); n; n = n->older.get()) keys.push_back(n->key);
  return keys;
}

// Also the returns of a draw (§6.3, turn cap, no progress): the seats with pawns share it, or
// every seat when at most one has pawns (a lone survivor with one pawn); biloba_eval.h.
std::vector<double> BilobaState::no_progress_values() const {
  std::array<double, kMaxColours> v;
  draw_values(pos_, v);
  return {v.begin(), v.begin() + pos_.players};
}

}  // namespace plateau::biloba
