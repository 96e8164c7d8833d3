#include "games/bohnduell/bohnduell_solver.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

namespace plateau::bohnduell {

namespace {

constexpr std::size_t kHeaderBytes = 4096;
constexpr char kMagic[] = "PLATEAU BOHNDUELL VALUE TABLE\n";

unsigned rules_flags(const Rules& r) {
  return (r.short_supply_partial ? 1u : 0u) | (r.steal_any ? 2u : 0u) |
         (r.steal_on_harvest ? 4u : 0u) | (r.sower_to_store ? 8u : 0u) |
         (r.opposite_same ? 16u : 0u) | (r.leftovers_owner ? 32u : 0u) | (r.extra_turn ? 64u : 0u);
}

Rules rules_of(int supply, unsigned flags) {
  Rules r;
  r.supply = supply;
  r.short_supply_partial = flags & 1u;
  r.steal_any = flags & 2u;
  r.steal_on_harvest = flags & 4u;
  r.sower_to_store = flags & 8u;
  r.opposite_same = flags & 16u;
  r.leftovers_owner = flags & 32u;
  r.extra_turn = flags & 64u;
  return r;
}

// The value of `code` played from `pos` given a value function V for the next position.
template <typename ValueFn>
int move_value_with(const Rules& rules, const Position& pos, int code, ValueFn&& value) {
  Position next = pos;
  const int mover = pos.to_move;
  const int before = next.side[mover].store;
  apply_move(rules, next, code);
  const int gain = next.side[mover].store - before;
  if (next.over) return gain + terminal_value(rules, next, mover);
  return next.to_move == mover ? gain + value(next) : gain - value(next);
}

}  // namespace

std::string rules_key(const Rules& r) {
  std::string key = "supply=" + std::to_string(r.supply);
  if (r.short_supply_partial) key += ",short_supply=partial";
  if (r.steal_any) key += ",steal_scope=any";
  if (r.steal_on_harvest) key += ",steal_on_harvest=yes";
  if (r.sower_to_store) key += ",sower_to_store=yes";
  if (r.opposite_same) key += ",opposite=same";
  if (r.leftovers_owner) key += ",leftovers=owner";
  if (r.extra_turn) key += ",extra_turn=yes";
  return key;
}

int terminal_value(const Rules& rules, const Position& pos, int seat) {
  if (!rules.leftovers_owner) return 0;
  int v = 0;
  for (int d = 1; d <= kBowls; ++d) v += pos.side[seat].bowl[d] - pos.side[1 - seat].bowl[d];
  return v;
}

std::uint64_t ValueTable::side_count(int n) {
  // C(n+5, 5)
  std::uint64_t c = 1;
  for (int i = 1; i <= 5; ++i)
    c = c * static_cast<std::uint64_t>(n + i) / static_cast<std::uint64_t>(i);
  return c;
}

void ValueTable::build_ranks() {
  const int n = rules_.supply;
  const int b = n + 1;
  rank_.assign(static_cast<std::size_t>(b) * b * b * b * b, -1);
  std::int32_t next = 0;
  for (int a1 = 0; a1 <= n; ++a1)
    for (int a2 = 0; a1 + a2 <= n; ++a2)
      for (int a3 = 0; a1 + a2 + a3 <= n; ++a3)
        for (int a4 = 0; a1 + a2 + a3 + a4 <= n; ++a4)
          for (int s = 0; a1 + a2 + a3 + a4 + s <= n; ++s)
            rank_[static_cast<std::size_t>((((a1 * b + a2) * b + a3) * b + a4) * b + s)] = next++;
  sides_ = static_cast<std::uint64_t>(next);
  size_ = sides_ * sides_;
}

int ValueTable::rank(const Side& s) const {
  const int n = rules_.supply;
  const int sum = s.bowl[1] + s.bowl[2] + s.bowl[3] + s.bowl[4] + s.supply;
  if (sum > n) return -1;
  const int b = n + 1;
  return rank_[static_cast<std::size_t>(
      (((s.bowl[1] * b + s.bowl[2]) * b + s.bowl[3]) * b + s.bowl[4]) * b + s.supply)];
}

ValueTable::ValueTable(const Rules& rules) : rules_(rules) {
  build_ranks();
  mapping_bytes_ = size_;
  void* p = mmap(nullptr, mapping_bytes_, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    throw std::runtime_error("cannot reserve " + std::to_string(size_) +
                             " bytes for the BohnDuell table");
  }
  mapping_ = static_cast<std::uint8_t*>(p);
  data_ = mapping_;
}

ValueTable::~ValueTable() {
  if (mapping_) munmap(mapping_, mapping_bytes_);
}

std::shared_ptr<ValueTable> ValueTable::load(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) throw std::runtime_error("cannot open table '" + path + "': " + std::strerror(errno));
  struct stat st {};
  fstat(fd, &st);
  char header[kHeaderBytes] = {};
  const ssize_t got = pread(fd, header, kHeaderBytes, 0);
  if (got != static_cast<ssize_t>(kHeaderBytes) ||
      std::strncmp(header, kMagic, std::strlen(kMagic)) != 0) {
    close(fd);
    throw std::runtime_error("'" + path + "' is not a BohnDuell value table");
  }
  const std::size_t magic = std::strlen(kMagic);
  std::istringstream in(std::string(header + magic, kHeaderBytes - magic));
  int supply = -1;
  unsigned flags = 0;
  std::string word;
  while (in >> word) {
    if (word == "supply") in >> supply;
    if (word == "flags") in >> flags;
  }
  if (supply < 1 || supply > kMaxSupply) {
    close(fd);
    throw std::runtime_error("'" + path + "': bad supply in the table header");
  }
  std::shared_ptr<ValueTable> t(new ValueTable());
  t->rules_ = rules_of(supply, flags);
  t->build_ranks();
  if (static_cast<std::uint64_t>(st.st_size) != kHeaderBytes + t->size_) {
    close(fd);
    throw std::runtime_error("'" + path + "' is truncated: expected " +
                             std::to_string(kHeaderBytes + t->size_) + " bytes");
  }
  t->mapping_bytes_ = kHeaderBytes + t->size_;
  void* p = mmap(nullptr, t->mapping_bytes_, PROT_READ, MAP_SHARED, fd, 0);
  close(fd);
  if (p == MAP_FAILED) throw std::runtime_error("cannot map table '" + path + "'");
  t->mapping_ = static_cast<std::uint8_t*>(p);
  t->data_ = t->mapping_ + kHeaderBytes;
  return t;
}

void ValueTable::save(const std::string& path) const {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write table '" + path + "'");
  std::string header = kMagic;
  header += "rules " + rules_key(rules_) + "\nsupply " + std::to_string(rules_.supply) +
            "\nflags " + std::to_string(rules_flags(rules_)) + "\nsides " + std::to_string(sides_) +
            "\nbytes " + std::to_string(size_) +
            "\nentry: index rank(mover)*sides+rank(other); byte 0 unsolved, else value+128\n";
  header.resize(kHeaderBytes, '\0');
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  constexpr std::uint64_t kChunk = 1u << 26;
  for (std::uint64_t at = 0; at < size_; at += kChunk) {
    const std::uint64_t len = std::min(kChunk, size_ - at);
    out.write(reinterpret_cast<const char*>(data_ + at), static_cast<std::streamsize>(len));
  }
  out.close();
  if (!out) throw std::runtime_error("error while writing table '" + path + "'");
}

bool ValueTable::indexable(const Position& pos) const {
  return rank(pos.side[0]) >= 0 && rank(pos.side[1]) >= 0;
}

std::uint64_t ValueTable::index(const Position& pos) const {
  const int m = pos.to_move;
  return static_cast<std::uint64_t>(rank(pos.side[m])) * sides_ +
         static_cast<std::uint64_t>(rank(pos.side[1 - m]));
}

std::uint64_t ValueTable::count_solved() const {
  std::uint64_t n = 0;
  for (std::uint64_t i = 0; i < size_; ++i) n += data_[i] != 0;
  return n;
}

namespace {

struct DenseSolver {
  ValueTable& table;
  const Rules& rules;
  const std::function<void(std::uint64_t)>& progress;
  std::uint64_t solved = 0;

  int value(const Position& pos) {
    const std::uint64_t i = table.index(pos);
    if (auto v = table.get(i)) return *v;
    int best = INT_MIN;
    const unsigned mask = legal_mask(rules, pos);
    for (int code = 0; code < kNumMoveCodes; ++code) {
      if (mask & (1u << code)) {
        best = std::max(best, move_value_with(rules, pos, code,
                                              [this](const Position& p) { return value(p); }));
      }
    }
    table.set(i, best);
    if ((++solved & 0xFFFFF) == 0 && progress) progress(solved);
    return best;
  }
};

}  // namespace

int solve(ValueTable& table, const Position& start,
          const std::function<void(std::uint64_t)>& progress, std::uint64_t* solved) {
  if (start.over) throw std::invalid_argument("solve: the game is over");
  if (!table.indexable(start)) {
    throw std::invalid_argument("solve: a side holds more than the supply N in bowls and supply");
  }
  DenseSolver s{table, table.rules(), progress};
  const int v = s.value(start);
  if (solved) *solved = s.solved;
  return v;
}

ExactSearcher::ExactSearcher(const Rules& rules, std::shared_ptr<const ValueTable> table,
                             std::uint64_t node_budget, std::function<bool()> stop)
    : rules_(rules), table_(std::move(table)), budget_(node_budget), stop_(std::move(stop)) {
  if (table_ && rules_key(table_->rules()) != rules_key(rules_)) table_.reset();
}

namespace {
// Mover side then other side, 6 bits per count (counts are at most 63, §9).
std::uint64_t memo_key(const Position& pos) {
  std::uint64_t k = 0;
  for (int s : {static_cast<int>(pos.to_move), 1 - pos.to_move}) {
    const Side& side = pos.side[s];
    for (int d = 1; d <= kBowls; ++d) k = (k << 6) | side.bowl[d];
    k = (k << 6) | side.supply;
  }
  return k;
}
}  // namespace

int ExactSearcher::search(const Position& pos) {
  if (aborted_) return 0;
  if (table_ && table_->indexable(pos)) {
    if (auto v = table_->get(table_->index(pos))) return *v;
  }
  const std::uint64_t key = memo_key(pos);
  if (auto v = memo_find(key)) return *v;
  if (++nodes_ > budget_ || ((nodes_ & 4095) == 0 && stop_ && stop_())) {
    aborted_ = true;
    return 0;
  }
  int best = INT_MIN;
  const unsigned mask = legal_mask(rules_, pos);
  for (int code = 0; code < kNumMoveCodes; ++code) {
    if (mask & (1u << code)) best = std::max(best, move_value(pos, code));
    if (aborted_) return 0;
  }
  memo_insert(key, best);
  return best;
}

namespace {
std::size_t memo_slot(std::uint64_t key, std::size_t mask) {
  return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 20) & mask;
}
}  // namespace

std::optional<int> ExactSearcher::memo_find(std::uint64_t key) const {
  if (memo_keys_.empty()) return std::nullopt;
  const std::size_t mask = memo_keys_.size() - 1;
  for (std::size_t i = memo_slot(key, mask);; i = (i + 1) & mask) {
    if (memo_keys_[i] == 0) return std::nullopt;
    if (memo_keys_[i] == key + 1) return memo_values_[i];
  }
}

void ExactSearcher::memo_insert(std::uint64_t key, int value) {
  if (2 * (memo_count_ + 1) > memo_keys_.size()) {
    std::vector<std::uint64_t> old_keys = std::move(memo_keys_);
    std::vector<std::int8_t> old_values = std::move(memo_values_);
    const std::size_t size = std::max<std::size_t>(1024, old_keys.size() * 2);
    memo_keys_.assign(size, 0);
    memo_values_.assign(size, 0);
    memo_count_ = 0;
    for (std::size_t i = 0; i < old_keys.size(); ++i) {
      if (old_keys[i] != 0) memo_insert(old_keys[i] - 1, old_values[i]);
    }
  }
  const std::size_t mask = memo_keys_.size() - 1;
  std::size_t i = memo_slot(key, mask);
  while (memo_keys_[i] != 0) i = (i + 1) & mask;
  memo_keys_[i] = key + 1;
  memo_values_[i] = static_cast<std::int8_t>(value);
  ++memo_count_;
}

int ExactSearcher::move_value(const Position& pos, int code) {
  return move_value_with(rules_, pos, code, [this](const Position& p) { return search(p); });
}

std::optional<int> ExactSearcher::value(const Position& pos) {
  if (pos.over) return 0;
  const int v = search(pos);
  if (aborted_) return std::nullopt;
  return v;
}

std::optional<std::vector<int>> ExactSearcher::move_values(const Position& pos) {
  std::vector<int> out;
  const unsigned mask = legal_mask(rules_, pos);
  for (int code = 0; code < kNumMoveCodes; ++code) {
    if (!(mask & (1u << code))) continue;
    out.push_back(move_value(pos, code));
    if (aborted_) return std::nullopt;
  }
  return out;
}

namespace {
std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, std::shared_ptr<const ValueTable>>& registry() {
  static std::map<std::string, std::shared_ptr<const ValueTable>> r;
  return r;
}
}  // namespace

std::string table_dir() {
  if (const char* dir = std::getenv("PLATEAU_TABLES"); dir && *dir) return dir;
  if (const char* home = std::getenv("HOME"); home && *home) {
    return std::string(home) + "/.local/share/plateau/tables";
  }
  return "tables";
}

std::string table_file_name(const Rules& rules) {
  return "bohnduell-" + rules_key(rules) + ".table";
}

std::string table_path(const Rules& rules) { return table_dir() + "/" + table_file_name(rules); }

void register_table(std::shared_ptr<const ValueTable> table) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry()[rules_key(table->rules())] = std::move(table);
}

std::shared_ptr<const ValueTable> find_table(const Rules& rules) {
  const std::string key = rules_key(rules);
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto& reg = registry();
  if (auto it = reg.find(key); it != reg.end()) return it->second;
  const std::string path = table_path(rules);
  struct stat st {};
  if (stat(path.c_str(), &st) == 0) {
    try {
      auto t = ValueTable::load(path);
      if (rules_key(t->rules()) == key) return reg[key] = std::move(t);
    } catch (const std::exception&) {
      // A damaged file is ignored: the caller falls back to search.
    }
  }
  if (rules.supply <= kAutoSolveSupply) {
    auto t = std::make_shared<ValueTable>(rules);
    solve(*t, start_position(rules));
    return reg[key] = std::move(t);
  }
  return nullptr;
}

}  // namespace plateau::bohnduell
