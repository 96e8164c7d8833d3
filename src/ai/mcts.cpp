#include "ai/mcts.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <deque>
#include <stdexcept>

#include "core/game.h"

namespace plateau::ai {

namespace {
constexpr int kMaxSeats = 4;
constexpr double kTop = 1.0 - 1e-9;  // a return this high is the best a seat can get
}  // namespace

struct Mcts::Node {
  Move move;  // the move from the parent into this node
  int parent = -1;
  int mover = -1;         // seat that played `move` (-1 at the root)
  int seat = 0;           // seat to move here, kTerminalSeat when the game is over
  bool expanded = false;  // `pending` holds the moves not yet made children
  bool proven = false;    // outcome under perfect play known: proven_returns
  std::uint32_t visits = 0;
  double value_sum = 0.0;  // sum of `mover`'s returns over the visits
  std::vector<int> children;
  std::vector<Move> pending;  // next child to create at the back
  std::array<double, kMaxSeats> proven_returns{};
};

Mcts::Mcts(MctsOptions options) : options_(options), rng_(options.seed) {}
Mcts::~Mcts() = default;

std::size_t Mcts::tree_size() const { return nodes_.size(); }

int Mcts::expand_child(int node_index, const State& state_after) {
  Node child;
  child.parent = node_index;
  child.mover = nodes_[node_index].seat;
  child.move = std::move(nodes_[node_index].pending.back());
  nodes_[node_index].pending.pop_back();
  child.seat = state_after.current_seat();
  if (child.seat == kTerminalSeat) {
    child.proven = true;
    std::vector<double> r = state_after.returns();
    for (std::size_t i = 0; i < r.size() && i < kMaxSeats; ++i) child.proven_returns[i] = r[i];
  } else if (WorkBudget b{kNodeWinWork}; state_after.bounded_winning_move(b)) {
    work_ += b.used;
    child.proven = true;
    child.proven_returns[static_cast<std::size_t>(child.seat)] = 1.0;
  }
  const int index = static_cast<int>(nodes_.size());
  nodes_.push_back(std::move(child));
  nodes_[node_index].children.push_back(index);
  return index;
}

int Mcts::select_child(int node_index, int num_seats) {
  (void)num_seats;
  const Node& node = nodes_[node_index];
  const auto p = static_cast<std::size_t>(node.seat);
  const double log_n = std::log(static_cast<double>(node.visits) + 1.0);
  int best = -1;
  double best_score = -1e300;
  bool any_open = false;
  for (int c : node.children) {
    const Node& ch = nodes_[c];
    if (!ch.proven || ch.proven_returns[p] > 1e-9) any_open = true;
  }
  for (int c : node.children) {
    const Node& ch = nodes_[c];
    if (any_open && ch.proven && ch.proven_returns[p] <= 1e-9) continue;  // proven loss
    const double n = static_cast<double>(ch.visits) + 1e-9;
    const double mean = ch.proven ? ch.proven_returns[p] : ch.value_sum / n;
    const double score = mean + options_.exploration * std::sqrt(log_n / n);
    if (score > best_score) {
      best_score = score;
      best = c;
    }
  }
  return best;
}

void Mcts::backup_proof(int node_index) {
  int child = node_index;
  while (child >= 0 && nodes_[child].proven && nodes_[child].parent >= 0) {
    const int pi = nodes_[child].parent;
    Node& parent = nodes_[pi];
    if (parent.proven) return;
    const auto p = static_cast<std::size_t>(parent.seat);
    if (nodes_[child].proven_returns[p] >= kTop) {
      parent.proven = true;
      parent.proven_returns = nodes_[child].proven_returns;
    } else if (parent.expanded && parent.pending.empty()) {
      int best = -1;
      for (int c : parent.children) {
        if (!nodes_[c].proven) return;
        if (best < 0 || nodes_[c].proven_returns[p] > nodes_[best].proven_returns[p]) best = c;
      }
      parent.proven = true;
      parent.proven_returns = nodes_[best].proven_returns;
    } else {
      return;
    }
    child = pi;
  }
}

void Mcts::compact_from(int new_root) {
  std::vector<Node> fresh;
  fresh.reserve(nodes_.size());
  // Depth-first copy with re-indexing; (old index, new parent index) pairs.
  std::vector<std::pair<int, int>> stack{{new_root, -1}};
  while (!stack.empty()) {
    auto [old_index, new_parent] = stack.back();
    stack.pop_back();
    const int new_index = static_cast<int>(fresh.size());
    fresh.push_back(std::move(nodes_[old_index]));
    Node& n = fresh.back();
    n.parent = new_parent;
    if (new_parent >= 0) {
      fresh[new_parent].children.push_back(new_index);
    }
    std::vector<int> old_children = std::move(n.children);
    n.children.clear();
    // Push in reverse so children keep their order.
    for (auto it = old_children.rbegin(); it != old_children.rend(); ++it) {
      stack.emplace_back(*it, new_index);
    }
  }
  fresh[0].mover = -1;
  fresh[0].move = Move();
  nodes_ = std::move(fresh);
}

bool Mcts::try_reuse(const State& state) {
  if (!root_state_ || nodes_.empty()) return false;
  if (root_state_->game()->spec() != state.game()->spec()) return false;
  const std::uint64_t target = state.hash();
  struct Item {
    int index;
    std::unique_ptr<State> s;
    int depth;
  };
  std::deque<Item> queue;
  queue.push_back({0, root_state_->clone(), 0});
  while (!queue.empty()) {
    Item item = std::move(queue.front());
    queue.pop_front();
    if (item.s->hash() == target && item.s->equals(state)) {
      if (item.index != 0) compact_from(item.index);
      root_state_ = state.clone();
      reused_visits_ = nodes_[0].visits;
      return true;
    }
    if (item.depth >= 4) continue;
    for (int c : nodes_[item.index].children) {
      auto next = item.s->clone();
      next->apply(nodes_[c].move);
      queue.push_back({c, std::move(next), item.depth + 1});
    }
  }
  return false;
}

SearchResult Mcts::search(const State& state, const SearchLimits& limits) {
  if (state.is_terminal()) throw std::invalid_argument("MCTS: the game is over");
  Deadline deadline(limits);
  SearchResult result;
  work_ = 0;
  WorkBudget root_win{kRootWinWork, [&deadline] { return deadline.expired(); }};
  if (auto win = state.bounded_winning_move(root_win)) {
    result.best = *win;
    result.pv = {*win};
    result.value = 1.0;
    result.exact = true;
    result.work = root_win.used;
    result.info = "immediate win";
    return result;
  }
  work_ += root_win.used;
  if (!(options_.reuse_tree && try_reuse(state))) {
    nodes_.clear();
    root_state_ = state.clone();
    Node root;
    root.seat = state.current_seat();
    nodes_.push_back(std::move(root));
    reused_visits_ = 0;
  }
  const int num_seats = state.game()->num_seats();
  std::vector<double> r;
  std::uint64_t it = 0;
  // Moves kept in the tree (children and pending lists): the memory bound with max_nodes.
  std::size_t stored = 0;
  for (const Node& n : nodes_) stored += n.pending.size() + n.children.size();
  // No search-wide work cap: each iteration expands one node (its list bounded by kNodeMoveWork)
  // and the deadline is read every iteration, so the work is linear in the playout budget.
  for (; it < limits.budget; ++it) {
    if (nodes_[0].proven) break;
    if (it > 0 && deadline.expired()) break;
    auto s = root_state_->clone();
    int idx = 0;
    while (true) {
      Node& node = nodes_[idx];
      if (node.proven || node.seat == kTerminalSeat) break;
      if (!node.expanded) {
        if (idx != 0 && stored >= options_.max_stored_moves) break;  // memory: play out here
        WorkBudget b{idx == 0 ? kRootMoveWork : kNodeMoveWork};
        if (idx == 0) b.stop = [&deadline] { return deadline.expired(); };
        node.pending = s->ordered_distinct_moves(b);
        work_ += b.used;
        stored += node.pending.size();
        std::reverse(node.pending.begin(), node.pending.end());
        node.expanded = true;
      }
      const bool room = nodes_.size() < options_.max_nodes;
      const bool widen = options_.widening <= 0.0 ||
                         static_cast<double>(node.children.size()) <
                             1.0 + options_.widening * std::sqrt(static_cast<double>(node.visits));
      if (!node.pending.empty() && room && (widen || node.children.empty())) {
        s->apply(node.pending.back());
        idx = expand_child(idx, *s);
        break;
      }
      if (node.children.empty()) break;  // out of memory: play out from here
      idx = select_child(idx, num_seats);
      s->apply(nodes_[idx].move);
    }
    const Node& leaf = nodes_[idx];
    if (leaf.proven) {
      r.assign(leaf.proven_returns.begin(), leaf.proven_returns.begin() + num_seats);
    } else if (options_.playout_depth < 0) {
      r = s->evaluate();
    } else {
      int plies = 0;
      while (!s->is_terminal() && (options_.playout_depth == 0 || plies < options_.playout_depth)) {
        s->apply(s->playout_move(rng_));
        ++plies;
      }
      r = s->is_terminal() ? s->returns() : s->evaluate();
    }
    for (int i = idx; i >= 0; i = nodes_[i].parent) {
      Node& n = nodes_[i];
      ++n.visits;
      if (n.mover >= 0) n.value_sum += r[static_cast<std::size_t>(n.mover)];
    }
    if (nodes_[idx].proven) backup_proof(idx);
  }
  result.iterations = it;
  result.work = work_;

  // The move: a proven best child, else the most visited child that is not a proven loss.
  const Node& root = nodes_[0];
  const auto p = static_cast<std::size_t>(root.seat);
  auto child_key = [&](int c) {
    const Node& ch = nodes_[c];
    const double proof = ch.proven ? (ch.proven_returns[p] >= kTop   ? 2.0
                                      : ch.proven_returns[p] <= 1e-9 ? -1.0
                                                                     : 0.0)
                                   : 0.0;
    const double mean = ch.visits ? ch.value_sum / ch.visits : 0.0;
    return std::array<double, 3>{proof, static_cast<double>(ch.visits), mean};
  };
  int best = -1;
  for (int c : root.children) {
    if (best < 0 || child_key(c) > child_key(best)) best = c;
  }
  if (best < 0) {
    // No iteration ran (budget 0): the first move in the game's order.
    WorkBudget b{kRootMoveWork};
    std::vector<Move> moves = state.ordered_distinct_moves(b);
    result.best = moves.front();
    result.pv = {result.best};
    result.info = "no search";
    return result;
  }
  const Node& b = nodes_[best];
  result.best = b.move;
  if (root.proven) {
    result.exact = true;
    result.value = root.proven_returns[p];
  } else if (b.proven) {
    result.exact = true;
    result.value = b.proven_returns[p];
  } else {
    result.value = b.visits ? b.value_sum / b.visits : 0.5;
  }
  for (int i = best; i >= 0 && result.pv.size() < 16;) {
    result.pv.push_back(nodes_[i].move);
    int next = -1;
    for (int c : nodes_[i].children) {
      if (next < 0 || nodes_[c].visits > nodes_[next].visits) next = c;
    }
    i = next;
  }
  result.info = std::to_string(it) + " playouts, " + std::to_string(nodes_.size()) + " nodes, " +
                std::to_string(deadline.elapsed_us() / 1000) + " ms" +
                (result.exact ? ", proven" : "");
  return result;
}

}  // namespace plateau::ai
