// Biloba's repetition hooks (core/state.h, docs/AI.md "Repetition"): the positions of the game
// since the last turn that removed a pawn, kept as an immutable list that clones share, so a bot
// searching a clone on another thread never sees the table's list change under it.
#include "core/zobrist.h"
#include "games/biloba/biloba_eval.h"
#include "games/biloba/biloba_game.h"

namespace plateau::biloba {

// A chunk of the list: keys[0..count), oldest first, then the older chunks.
struct BilobaState::HistoryNode {
  std::array<std::uint64_t, kRecent> keys{};
  int count = 0;
  int length = 0;  // keys in this chunk and the older ones
  std::shared_ptr<const HistoryNode> older;
};

namespace {

// A list longer than this is cut to its newest kKeep keys (amortised: one copy of kKeep keys
// every kKeep turns), which bounds its memory and the depth of its recursive destruction. (The
// cut is made at the same turns as when the list held one key per node: the searches see the
// same earlier positions.)
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

void BilobaState::flush_recent() {
  if (recent_count_ == 0) return;
  auto chunk = std::make_shared<HistoryNode>();
  chunk->keys = recent_;
  chunk->count = recent_count_;
  chunk->length = recent_count_ + (history_ ? history_->length : 0);
  chunk->older = std::move(history_);
  history_ = std::move(chunk);
  recent_count_ = 0;
}

void BilobaState::note_turn(std::uint64_t before_key, bool removed_pawn) {
  if (removed_pawn) {
    history_.reset();  // a capture or an elimination: no earlier position can recur
    recent_count_ = 0;
    return;
  }
  if (recent_count_ + (history_ ? history_->length : 0) >= kMaxLength) {
    std::vector<std::uint64_t> keep = earlier_positions();  // newest first
    keep.resize(kKeep);
    history_.reset();
    recent_count_ = 0;
    for (auto it = keep.rbegin(); it != keep.rend(); ++it) {
      if (recent_count_ == kRecent) flush_recent();
      recent_[recent_count_++] = *it;
    }
    flush_recent();
  }
  if (recent_count_ == kRecent) flush_recent();
  recent_[recent_count_++] = before_key;
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
  std::vector<std::uint64_t> keys;  // newest first
  keys.reserve(static_cast<std::size_t>(recent_count_ + (history_ ? history_->length : 0)));
  for (int i = recent_count_ - 1; i >= 0; --i) keys.push_back(recent_[i]);
  for (const HistoryNode* n = history_.get(); n; n = n->older.get()) {
    for (int i = n->count - 1; i >= 0; --i) keys.push_back(n->keys[i]);
  }
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
