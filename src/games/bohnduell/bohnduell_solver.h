#pragma once
// BohnDuell exact solver (specs/bohnduell.md §11). The value of a position is the best future
// store margin of the side to move under perfect play (stores so far do not count; with
// leftovers = owner the bowls left at the end do). A move's value is
//   gain + V(next) if the mover moves again (the opponent passes), gain - V(next) if the turn
//   passes, gain (+ leftovers) if the game ends,
// where gain is what the move adds to the mover's store (§11.2 "Recursion").
//
// ValueTable is the dense table of §11.2: one byte for each pair (mover side, other side) of
// side tuples (b1, b2, b3, b4, supply) with sum <= N, M = C(N+5, 5) tuples, M² bytes. Byte 0
// means "not solved" (unreachable), otherwise value + 128. On disk: a 4096-byte header, then the
// M² bytes, so the table loads with mmap without reading it.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "games/bohnduell/bohnduell_rules.h"

namespace plateau::bohnduell {

// Canonical text of the rules a table depends on (§11.2 "Keying"): "supply=20" plus every
// non-default switch, e.g. "supply=12,steal_scope=any".
std::string rules_key(const Rules& rules);

class ValueTable {
 public:
  // A new, unsolved table for `rules` (memory is reserved lazily: untouched pages cost nothing).
  // Throws std::runtime_error if the memory cannot be mapped.
  explicit ValueTable(const Rules& rules);
  ~ValueTable();
  ValueTable(const ValueTable&) = delete;
  ValueTable& operator=(const ValueTable&) = delete;

  // Maps the table file at `path` read-only. Throws std::runtime_error naming the problem (no
  // such file, not a BohnDuell table, truncated).
  static std::shared_ptr<ValueTable> load(const std::string& path);
  // Writes the table to `path` (header then bytes). Throws std::runtime_error on I/O errors.
  void save(const std::string& path) const;

  // Number of side tuples M = C(N+5, 5) and table bytes M² for supply N.
  static std::uint64_t side_count(int supply);
  static std::uint64_t byte_count(int supply) { return side_count(supply) * side_count(supply); }

  const Rules& rules() const { return rules_; }
  std::uint64_t size() const { return size_; }
  // True if both sides of `pos` hold at most N balls in bowls plus supply (I2).
  bool indexable(const Position& pos) const;
  // Entry index of `pos` from the side to move's view; `pos` must be indexable.
  std::uint64_t index(const Position& pos) const;
  std::optional<int> get(std::uint64_t i) const {
    const std::uint8_t b = data_[i];
    return b == 0 ? std::nullopt : std::optional<int>(static_cast<int>(b) - 128);
  }
  void set(std::uint64_t i, int value) { data_[i] = static_cast<std::uint8_t>(value + 128); }
  // Number of solved entries (scans the whole table).
  std::uint64_t count_solved() const;

 private:
  ValueTable() = default;
  void build_ranks();
  int rank(const Side& s) const;

  Rules rules_;
  std::uint64_t sides_ = 0;
  std::uint64_t size_ = 0;
  std::vector<std::int32_t> rank_;  // (N+1)^5 lookup of tuple ranks, -1 for sum > N
  std::uint8_t* data_ = nullptr;
  std::uint8_t* mapping_ = nullptr;
  std::size_t mapping_bytes_ = 0;
};

// The value a finished position adds for `seat` (leftover bowls with leftovers = owner, else 0).
int terminal_value(const Rules& rules, const Position& pos, int seat);

// Solves every position reachable from `start` (not over, indexable) into `table` and returns
// V(start). Entries already solved are reused. `progress` (may be empty) is called with the
// number of newly solved positions every 2^20 of them. Returns the count of newly solved
// positions in `solved` if not null.
int solve(ValueTable& table, const Position& start,
          const std::function<void(std::uint64_t)>& progress = {}, std::uint64_t* solved = nullptr);

// Exact search for single positions: uses a table where it has the entry and a memo of its own
// elsewhere; gives up (nullopt) after `node_budget` new positions or when `stop()` says so.
class ExactSearcher {
 public:
  ExactSearcher(const Rules& rules, std::shared_ptr<const ValueTable> table,
                std::uint64_t node_budget, std::function<bool()> stop = {});
  // V(pos) for a position that is not over.
  std::optional<int> value(const Position& pos);
  // The value of each legal move of the side to move, in move-code order (§11.2 "Output per
  // query"); nullopt if the budget ran out.
  std::optional<std::vector<int>> move_values(const Position& pos);
  std::uint64_t nodes() const { return nodes_; }

 private:
  int search(const Position& pos);
  int move_value(const Position& pos, int code);

  Rules rules_;
  std::shared_ptr<const ValueTable> table_;
  std::uint64_t budget_;
  std::function<bool()> stop_;
  std::uint64_t nodes_ = 0;
  bool aborted_ = false;
  // Open-addressing memo: key + 1 (0 = empty slot) and the value, grown at half load.
  std::optional<int> memo_find(std::uint64_t key) const;
  void memo_insert(std::uint64_t key, int value);
  std::vector<std::uint64_t> memo_keys_;
  std::vector<std::int8_t> memo_values_;
  std::size_t memo_count_ = 0;
};

// Tables known to this process, by rules_key. find_table() looks in the cache, then for the
// file table_path(rules) in table_dir(), then (supply <= kAutoSolveSupply) solves in memory.
inline constexpr int kAutoSolveSupply = 10;
std::string table_dir();  // $PLATEAU_TABLES, else $HOME/.local/share/plateau/tables
std::string table_file_name(const Rules& rules);  // "bohnduell-supply=20.table"
std::string table_path(const Rules& rules);       // table_dir() + "/" + table_file_name(rules)
std::shared_ptr<const ValueTable> find_table(const Rules& rules);
// Makes `table` the one find_table returns for its rules (e.g. right after plateau solve).
void register_table(std::shared_ptr<const ValueTable> table);

}  // namespace plateau::bohnduell
