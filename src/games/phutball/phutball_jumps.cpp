#include "games/phutball/phutball_jumps.h"

#include <optional>

namespace plateau::phutball {

namespace {

struct Memo {
  std::uint64_t paths = 0;  // allowed paths starting from this jump state (not counting itself)
  int longest = -1;         // most further hops to an allowed ending, -1 for none
};

// Open-addressing map from position keys to memo entries (keys are well-mixed Zobrist keys).
class MemoMap {
 public:
  MemoMap() : keys_(1 << 12, 0), values_(1 << 12) {}
  const Memo* find(std::uint64_t key) const {
    if (key == 0) return zero_ ? &*zero_ : nullptr;
    for (std::size_t i = slot(key);; i = (i + 1) & (keys_.size() - 1)) {
      if (keys_[i] == key) return &values_[i];
      if (keys_[i] == 0) return nullptr;
    }
  }
  void put(std::uint64_t key, const Memo& m) {
    if (key == 0) {
      zero_ = m;
      return;
    }
    if ((size_ + 1) * 2 > keys_.size()) grow();
    place(key, m);
  }

 private:
  std::size_t slot(std::uint64_t key) const {
    return (key * 0x9E3779B97F4A7C15ull) >> 20 & (keys_.size() - 1);
  }
  void place(std::uint64_t key, const Memo& m) {
    std::size_t i = slot(key);
    while (keys_[i] != 0 && keys_[i] != key) i = (i + 1) & (keys_.size() - 1);
    if (keys_[i] == 0) ++size_;
    keys_[i] = key;
    values_[i] = m;
  }
  void grow() {
    std::vector<std::uint64_t> old_keys(keys_.size() * 2, 0);
    std::vector<Memo> old_values(values_.size() * 2);
    old_keys.swap(keys_);
    old_values.swap(values_);
    size_ = 0;
    for (std::size_t i = 0; i < old_keys.size(); ++i) {
      if (old_keys[i] != 0) place(old_keys[i], old_values[i]);
    }
  }
  std::vector<std::uint64_t> keys_;
  std::vector<Memo> values_;
  std::size_t size_ = 0;
  std::optional<Memo> zero_;
};

struct Counter {
  const Rules& rules;
  const OwnGoalFilter& ending_ok;
  detail::HopWalker w;
  MemoMap memo;
  KeySet results;

  Memo from(int ball) {
    if (const Memo* known = memo.find(w.key)) return *known;
    const std::uint64_t here = w.key;
    Memo m;
    for (int d : kDirections) {
      const int to = hop_landing(rules, w.men, ball, d);
      if (to < 0) continue;
      const std::uint64_t delta = w.hop(ball, d, to);
      if (ending_ok(to, w.key)) {
        ++m.paths;
        m.longest = std::max(m.longest, 1);
        results.insert(w.key);
      }
      if (rules.landing[to] == Landing::kPoint) {
        const Memo next = from(to);
        m.paths += next.paths;
        if (next.longest >= 0) m.longest = std::max(m.longest, next.longest + 1);
      }
      w.undo(ball, d, to, delta);
    }
    memo.put(here, m);
    return m;
  }
};

}  // namespace

JumpCounts count_jumps(const Rules& rules, const Position& pos, const OwnGoalFilter& ending_ok) {
  if (!on_board(rules, pos.ball)) return {};
  Counter c{rules, ending_ok, detail::HopWalker(rules, pos), {}, {}};
  const Memo m = c.from(pos.ball);
  return {m.paths, c.results.size(), std::max(m.longest, 0)};
}

}  // namespace plateau::phutball
