#include "ai/alphabeta.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>
#include <limits>
#include <optional>
#include <stdexcept>

#include "ai/key_set.h"
#include "core/game.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace plateau::ai {

namespace {

constexpr int kInf = std::numeric_limits<int>::max() / 4;
constexpr int kMateBound = kWinScore - 1000;  // scores beyond this are forced wins/losses

enum Bound : std::uint8_t { kNone = 0, kExact = 1, kLower = 2, kUpper = 3 };

// An entry is empty while its bound is kNone, or when it was written before the last forget()
// (its generation is not the table's). All zero bytes is an empty entry, so the table needs no
// pass writing 24 MB before every search (TtTable), nor after forget().
struct TtEntry {
  std::uint64_t key;
  std::int32_t score;
  std::int16_t depth;
  std::uint8_t bound;
  std::uint16_t move_index;  // index in the node's ordered move list, 0xFFFF = none
  std::uint32_t generation;  // Impl::generation when written (fits the padding: still 24 bytes)
};
static_assert(std::is_trivially_default_constructible_v<TtEntry>);
static_assert(sizeof(TtEntry) == 24);

// The table's memory, all zero. On Linux fresh pages of the kernel, asked for as 2 MB pages
// (transparent huge pages, advice only): the table is probed at random, and with 4 KB pages
// nearly every probe of a 24 MB table also missed the TLB. Elsewhere calloc.
class TtTable {
 public:
  explicit TtTable(std::size_t entries) {
    const std::size_t bytes = entries * sizeof(TtEntry);
#if defined(__linux__)
    constexpr std::size_t kHuge = std::size_t{2} << 20;
    mapped_ = bytes + kHuge;
    base_ = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base_ == MAP_FAILED) throw std::bad_alloc();
    const auto start = (reinterpret_cast<std::uintptr_t>(base_) + kHuge - 1) & ~(kHuge - 1);
    madvise(reinterpret_cast<void*>(start), bytes, MADV_HUGEPAGE);
    entries_ = reinterpret_cast<TtEntry*>(start);
#else
    base_ = std::calloc(entries, sizeof(TtEntry));
    if (base_ == nullptr) throw std::bad_alloc();
    entries_ = static_cast<TtEntry*>(base_);
#endif
  }
  ~TtTable() {
#if defined(__linux__)
    munmap(base_, mapped_);
#else
    std::free(base_);
#endif
  }
  TtTable(const TtTable&) = delete;
  TtTable& operator=(const TtTable&) = delete;
  TtEntry& operator[](std::size_t i) const { return entries_[i]; }

 private:
  void* base_ = nullptr;
  std::size_t mapped_ = 0;
  TtEntry* entries_ = nullptr;
};

int to_tt(int v, int ply) { return v > kMateBound ? v + ply : v < -kMateBound ? v - ply : v; }
int from_tt(int v, int ply) { return v > kMateBound ? v - ply : v < -kMateBound ? v + ply : v; }

}  // namespace

int seat_score(const State& state, int seat, int ply) {
  const auto i = static_cast<std::size_t>(seat);
  if (state.is_terminal()) {
    const double r = state.returns()[i];
    if (r >= 1.0 - 1e-9) return kWinScore - ply;
    if (r <= 1e-9) return -(kWinScore - ply);
    return static_cast<int>(std::lround((2.0 * r - 1.0) * kEvalScale));
  }
  const double e = state.evaluate()[i];
  const long v = std::lround((2.0 * e - 1.0) * kEvalScale);
  return static_cast<int>(std::clamp<long>(v, -kEvalScale, kEvalScale));
}

double score_to_return(int score) {
  if (score > kMateBound) return 1.0;
  if (score < -kMateBound) return 0.0;
  return std::clamp((static_cast<double>(score) / kEvalScale + 1.0) / 2.0, 0.0, 1.0);
}

struct AlphaBeta::Impl {
  AlphaBetaOptions opt;
  std::unique_ptr<TtTable> tt;
  std::size_t tt_size = 0;
  std::uint64_t tt_mask = 0;
  std::uint32_t generation = 0;  // entries of another generation are empty (forget())
  int root_seat = 0;
  int num_seats = 2;
  std::uint64_t key_salt = 0;
  std::uint64_t nodes = 0;
  std::uint64_t budget = 0;
  const Deadline* deadline = nullptr;
  bool aborted = false;
  std::vector<std::array<Move, 2>> killers;
  // Positions visited by the bounded hooks (limits.h); the search aborts past max_work.
  std::uint64_t work = 0;
  std::uint64_t max_work = 0;
  std::uint64_t next_poll_work = 0;
  // Repetition: the game's earlier positions (State::earlier_positions) and the keys of the
  // positions on the current line from the root; a node repeating either scores as no progress.
  KeySet earlier;
  std::vector<std::uint64_t> line;
  std::uint64_t repetitions = 0;  // nodes scored as repetitions (tests, info)

  bool repeats(std::uint64_t key) const {
    return earlier.contains(key) ||
           std::find(line.begin(), line.end(), key) != line.end();
  }
  // The root seat's score of stopping at `s` for want of progress.
  int no_progress_score(const State& s) const {
    const double v = s.no_progress_values()[static_cast<std::size_t>(root_seat)];
    return static_cast<int>(std::lround((2.0 * v - 1.0) * kEvalScale));
  }
  // Keeps `key` on the line while a node's children are searched.
  struct OnLine {
    std::vector<std::uint64_t>& line;
    OnLine(std::vector<std::uint64_t>& l, std::uint64_t key) : line(l) { line.push_back(key); }
    ~OnLine() { line.pop_back(); }
  };

  // The game's order of distinct_moves(), the first `limit` (0 = all), within the work bounds of
  // limits.h. The root's list may be longer and stops at the deadline.
  std::vector<Move> ordered_moves(const State& s, std::size_t limit, bool root = false) {
    WorkBudget b;
    b.limit = root ? kRootMoveWork : kNodeMoveWork;
    if (root) b.stop = [this] { return deadline->expired(); };
    std::vector<Move> moves = s.ordered_distinct_moves(b);
    work += b.used;
    if (limit > 0 && moves.size() > limit) moves.resize(limit);
    return moves;
  }

  // A win in one for the side to move of `s`, within the work bounds of limits.h.
  std::optional<Move> winning_move(const State& s, bool root = false) {
    WorkBudget b;
    b.limit = root ? kRootWinWork : kNodeWinWork;
    if (root) b.stop = [this] { return deadline->expired(); };
    std::optional<Move> win = s.bounded_winning_move(b);
    work += b.used;
    return win;
  }

  explicit Impl(AlphaBetaOptions o) : opt(o) {
    std::size_t n = 1;
    while (n < opt.tt_entries) n <<= 1;
    tt = std::make_unique<TtTable>(n);
    tt_size = n;
    tt_mask = n - 1;
  }

  // The entry of `key` if the table holds one of this generation, else null.
  const TtEntry* find(std::uint64_t key) const {
    const TtEntry& e = (*tt)[key & tt_mask];
    return e.key == key && e.bound != kNone && e.generation == generation ? &e : nullptr;
  }
  void store(TtEntry& e, std::uint64_t key, int score, int depth, std::uint8_t bound,
             std::uint16_t move_index) const {
    e = TtEntry{key, score, static_cast<std::int16_t>(depth), bound, move_index, generation};
  }

  void forget() {
    killers.clear();
    if (++generation == 0) tt = std::make_unique<TtTable>(tt_size);  // wrapped: fresh zeros
  }

  bool out_of_budget() {
    ++nodes;
    if (nodes > budget || work > max_work) {
      aborted = true;
    } else if ((nodes & 255) == 0 || work >= next_poll_work) {
      next_poll_work = work + kDeadlinePollWork;
      if (deadline->expired()) aborted = true;
    }
    return aborted;
  }

  // 0: the root seat's side; 1: the others (2 seats: the opponent; more: the coalition).
  int team(const State& s) const {
    return s.is_terminal() || s.current_seat() == root_seat ? 0 : 1;
  }
  int leaf(const State& s, int ply) const {
    const int v = seat_score(s, root_seat, ply);
    return team(s) == 0 ? v : -v;
  }

  // Child value seen from the parent's team.
  int child_value(const State& parent, const State& child, int depth, int alpha, int beta,
                  int ply) {
    if (team(child) == team(parent)) return negamax(child, depth, alpha, beta, ply);
    return -negamax(child, depth, -beta, -alpha, ply);
  }

  int negamax(const State& s, int depth, int alpha, int beta, int ply) {
    if (out_of_budget()) return 0;
    if (s.is_terminal()) return leaf(s, ply);
    const std::uint64_t rkey = s.repetition_key();
    if (repeats(rkey)) {
      ++repetitions;
      const int v = no_progress_score(s);
      return team(s) == 0 ? v : -v;
    }
    if (winning_move(s)) return kWinScore - (ply + 1);
    if (depth <= 0) return leaf(s, ply);
    const OnLine on_line(line, rkey);

    const std::uint64_t key = s.hash() ^ key_salt;
    int tt_move = -1;
    if (const TtEntry* e = find(key)) {
      tt_move = e->move_index == 0xFFFF ? -1 : e->move_index;
      if (e->depth >= depth) {
        const int v = from_tt(e->score, ply);
        if (e->bound == kExact) return v;
        if (e->bound == kLower && v >= beta) return v;
        if (e->bound == kUpper && v <= alpha) return v;
      }
    }
    std::vector<Move> moves = ordered_moves(s, opt.max_moves);
    if (killers.size() <= static_cast<std::size_t>(ply)) killers.resize(ply + 1);
    const int n = static_cast<int>(moves.size());
    const int alpha0 = alpha;
    int best = -kInf;
    int best_i = 0;
    // Searches moves[i]; true when the node is done (a cut-off, or the search aborted).
    auto search_move = [&](int i) {
      auto child = s.clone();
      child->apply(moves[i]);
      const int v = child_value(s, *child, depth - 1, alpha, beta, ply + 1);
      if (aborted) return true;
      if (v > best) {
        best = v;
        best_i = i;
      }
      if (v > alpha) alpha = v;
      if (alpha < beta) return false;
      auto& k = killers[ply];
      if (!(k[0] == moves[i])) {
        k[1] = k[0];
        k[0] = moves[i];
      }
      return true;
    };
    // Search order: the table move, the killer moves, then the game's order. Each stage is
    // found only when the one before it did not cut off (most nodes cut off at their first
    // move); killers[ply] changes only at this node's own cut-off, so the order is the same as
    // if it were all listed first.
    std::array<int, 3> first{};  // the moves searched before the game's order
    int searched_first = 0;
    auto done = [&]() {
      if (tt_move >= 0 && tt_move < n) {
        first[searched_first++] = tt_move;
        if (search_move(tt_move)) return true;
      }
      for (std::size_t j = 0; j < 2; ++j) {
        // (killers may grow below this node: no reference into it is kept across a search.)
        const Move& k = killers[ply][j];
        if (k.empty()) continue;
        for (int i = 0; i < n; ++i) {
          // (Size and first code rule out nearly every move before the full comparison.)
          if (moves[i].size() != k.size() || moves[i][0] != k[0] || !(moves[i] == k)) continue;
          if (std::find(first.begin(), first.begin() + searched_first, i) !=
              first.begin() + searched_first) {
            continue;
          }
          first[searched_first++] = i;
          if (search_move(i)) return true;
          break;  // distinct_moves() lists a move once: no other one equals this killer
        }
      }
      for (int i = 0; i < n; ++i) {
        if (std::find(first.begin(), first.begin() + searched_first, i) !=
            first.begin() + searched_first) {
          continue;
        }
        if (search_move(i)) return true;
      }
      return false;
    };
    done();
    if (aborted) return 0;
    store((*tt)[key & tt_mask], key, to_tt(best, ply), depth,
          best <= alpha0 ? kUpper : best >= beta ? kLower : kExact,
          static_cast<std::uint16_t>(best_i));
    return best;
  }

  // Best-reply search (BRS+). `s` has the root seat to move (or is terminal). Scores are the
  // root seat's.
  int brs_max(const State& s, int depth, int alpha, int beta, int ply) {
    if (out_of_budget()) return 0;
    if (s.is_terminal()) return seat_score(s, root_seat, ply);
    const std::uint64_t rkey = s.repetition_key();
    if (repeats(rkey)) {
      ++repetitions;
      return no_progress_score(s);
    }
    if (depth <= 0) return seat_score(s, root_seat, ply);
    if (s.current_seat() != root_seat) return brs_min(s, depth, alpha, beta, ply, false);
    const OnLine on_line(line, rkey);
    int best = -kInf;
    for (const Move& m : ordered_moves(s, opt.max_moves)) {
      auto child = s.clone();
      child->apply(m);
      const int v = brs_min(*child, depth, alpha, beta, ply + 1, false);
      if (aborted) return 0;
      best = std::max(best, v);
      alpha = std::max(alpha, v);
      if (alpha >= beta) break;
    }
    return best;
  }

  // The opponents' turns up to the root seat's next turn: exactly one of them (the first not
  // yet `chosen`) deviates, every other plays its first move in the game's order.
  int brs_min(const State& s, int depth, int alpha, int beta, int ply, bool chosen) {
    if (s.is_terminal() || s.current_seat() == root_seat) {
      return brs_max(s, depth - 1, alpha, beta, ply);
    }
    if (out_of_budget()) return 0;
    const std::uint64_t rkey = s.repetition_key();
    if (repeats(rkey)) {
      ++repetitions;
      return no_progress_score(s);
    }
    const OnLine on_line(line, rkey);
    std::vector<Move> moves = ordered_moves(s, opt.max_moves);
    if (chosen) {
      auto child = s.clone();
      child->apply(moves.front());
      return brs_min(*child, depth, alpha, beta, ply + 1, true);
    }
    int best = kInf;
    for (const Move& m : moves) {
      auto child = s.clone();
      child->apply(m);
      const int v = brs_min(*child, depth, alpha, beta, ply + 1, true);
      if (aborted) return 0;
      best = std::min(best, v);
      beta = std::min(beta, v);
      if (alpha >= beta) return best;
    }
    // Or this opponent plays its default move and a later one deviates.
    auto child = s.clone();
    child->apply(moves.front());
    if (!child->is_terminal() && child->current_seat() != root_seat) {
      const int v = brs_min(*child, depth, alpha, beta, ply + 1, false);
      if (aborted) return 0;
      best = std::min(best, v);
    }
    return best;
  }

  std::vector<Move> principal_line(const State& root, const Move& first, int max_len) {
    std::vector<Move> pv{first};
    auto s = root.clone();
    s->apply(first);
    while (static_cast<int>(pv.size()) < max_len && !s->is_terminal()) {
      const std::uint64_t key = s->hash() ^ key_salt;
      const TtEntry* e = find(key);
      if (e == nullptr || e->move_index == 0xFFFF) break;
      std::vector<Move> moves = ordered_moves(*s, opt.max_moves);
      if (e->move_index >= moves.size()) break;
      pv.push_back(moves[e->move_index]);
      s->apply(moves[e->move_index]);
    }
    return pv;
  }

  SearchResult exact_root(const State& state, const Deadline& dl, bool& ok) {
    SearchResult r;
    ok = false;
    auto stop = [&dl] { return dl.expired(); };
    auto values = state.exact_move_values(opt.exact_budget, stop);
    if (!values) return r;
    std::vector<Move> moves = state.distinct_moves();
    if (values->size() != moves.size() || moves.empty()) return r;
    std::size_t best = 0;
    for (std::size_t i = 1; i < moves.size(); ++i) {
      if ((*values)[i] > (*values)[best]) best = i;
    }
    ok = true;
    r.best = moves[best];
    r.exact = true;
    r.exact_value = (*values)[best];
    r.value = r.exact_value > 0 ? 1.0 : r.exact_value == 0 ? 0.5 : 0.0;
    r.pv = {r.best};
    // Extend the line while the solver answers instantly (a table).
    auto s = state.clone();
    s->apply(r.best);
    while (r.pv.size() < 12 && !s->is_terminal()) {
      auto v = s->exact_move_values(100'000, stop);
      if (!v) break;
      std::vector<Move> ms = s->distinct_moves();
      std::size_t b = 0;
      for (std::size_t i = 1; i < ms.size(); ++i) {
        if ((*v)[i] > (*v)[b]) b = i;
      }
      r.pv.push_back(ms[b]);
      s->apply(ms[b]);
    }
    r.info = "exact value " + std::to_string(r.exact_value);
    return r;
  }

  SearchResult search(const State& state, const SearchLimits& limits) {
    if (state.is_terminal()) throw std::invalid_argument("alpha-beta: the game is over");
    Deadline dl(limits);
    deadline = &dl;
    budget = limits.budget;
    nodes = 0;
    work = 0;
    next_poll_work = kDeadlinePollWork;
    aborted = false;
    root_seat = state.current_seat();
    num_seats = state.game()->num_seats();
    repetitions = 0;
    line.clear();
    earlier.assign(state.earlier_positions());
    // The root is on every line below it.
    const OnLine root_on_line(line, state.repetition_key());
    const bool brs = num_seats > 2 && opt.multi_seat == MultiSeatMode::kBestReply;
    // Paranoid scores depend on the root seat: keep their table entries apart.
    key_salt =
        num_seats > 2 ? 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(root_seat + 1) : 0;
    if (opt.use_exact) {
      bool ok = false;
      SearchResult r = exact_root(state, dl, ok);
      if (ok) return r;
    }
    SearchResult result;
    if (auto win = winning_move(state, true)) {
      result.best = *win;
      result.pv = {*win};
      result.value = 1.0;
      result.exact = true;
      result.work = work;
      result.info = "immediate win";
      return result;
    }
    std::vector<Move> moves = ordered_moves(state, 2 * opt.max_moves, true);
    // The root's own lookups are bounded on their own; the interior nodes share max_work.
    max_work = work_cap(work, budget);
    result.best = moves.front();
    result.pv = {result.best};
    int best_score = 0;
    for (int depth = 1; depth <= opt.max_depth; ++depth) {
      int alpha = -kInf;
      const int beta = kInf;
      int iter_best = -1;
      int iter_score = -kInf;
      for (std::size_t i = 0; i < moves.size(); ++i) {
        auto child = state.clone();
        child->apply(moves[i]);
        int v;
        if (brs) {
          v = brs_min(*child, depth, alpha, beta, 1, false);
        } else {
          v = child_value(state, *child, depth - 1, alpha, beta, 1);
        }
        if (aborted) break;
        if (v > iter_score) {
          iter_score = v;
          iter_best = static_cast<int>(i);
        }
        alpha = std::max(alpha, v);
      }
      if (iter_best < 0) break;  // aborted before the first move finished
      // A partial iteration searched the previous best first, so its best is no worse.
      result.best = moves[iter_best];
      best_score = iter_score;
      std::rotate(moves.begin(), moves.begin() + iter_best, moves.begin() + iter_best + 1);
      if (!aborted) {
        result.depth = depth;
        if (!brs) {
          const std::uint64_t key = state.hash() ^ key_salt;
          store((*tt)[key & tt_mask], key, iter_score, depth, kExact, 0xFFFF);
        }
      }
      if (aborted || std::abs(iter_score) > kMateBound) break;
    }
    result.iterations = nodes;
    result.work = work;
    result.value = score_to_return(best_score);
    result.exact = std::abs(best_score) > kMateBound;
    result.pv = brs ? std::vector<Move>{result.best}
                    : principal_line(state, result.best, std::max(1, result.depth));
    result.info = "depth " + std::to_string(result.depth) + ", " + std::to_string(nodes) +
                  " nodes, " + std::to_string(dl.elapsed_us() / 1000) + " ms, score " +
                  std::to_string(best_score) +
                  (repetitions > 0 ? ", " + std::to_string(repetitions) + " repetitions" : "");
    return result;
  }
};

AlphaBeta::AlphaBeta(AlphaBetaOptions options) : impl_(std::make_unique<Impl>(options)) {}
AlphaBeta::~AlphaBeta() = default;

SearchResult AlphaBeta::search(const State& state, const SearchLimits& limits) {
  return impl_->search(state, limits);
}

void AlphaBeta::forget() { impl_->forget(); }

}  // namespace plateau::ai
