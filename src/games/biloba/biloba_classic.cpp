#include "games/biloba/biloba_classic.h"

#include <algorithm>
#include <cstdlib>

namespace plateau::biloba {

namespace {

// neighbour() as a table: the threat test runs for every pawn of every evaluated position.
struct NeighbourTable {
  std::array<std::array<std::int8_t, kDirections>, kSquares> nb{};
  NeighbourTable() {
    for (int sq = 0; sq < kSquares; ++sq) {
      for (int d = 0; d < kDirections; ++d) nb[sq][d] = static_cast<std::int8_t>(neighbour(sq, d));
    }
  }
};
const NeighbourTable& table() {
  static const NeighbourTable kTable;
  return kTable;
}

int distance(int a, int b) {
  return std::max(std::abs(x_of(a) - x_of(b)), std::abs(y_of(a) - y_of(b)));
}

bool is_pawn(std::uint8_t c) { return c < kMaxColours; }

// T counts as empty for the threat and canEatSoon tests: no pawn (decorative cells included).
bool holds_no_pawn(const Position& pos, int t) { return !is_pawn(pos.cell[t]); }

bool has_neighbour_of(const Position& pos, int square, int colour) {
  for (int n : table().nb[square]) {
    if (n >= 0 && pos.cell[n] == colour) return true;
  }
  return false;
}

Position moved(const Position& pos, int from, int to) {
  Position p = pos;
  p.cell[to] = p.cell[from];
  p.pawn_id[to] = p.pawn_id[from];
  p.cell[from] = kEmpty;
  p.pawn_id[from] = kNoPawn;
  return p;
}

// Step 2: enemy pawns adjacent to `d` with an own pawn beyond them, `after` having the pawn on d.
int attack_now_count(const Position& after, int d, int colour) {
  int e = 0;
  for (int dir = 0; dir < kDirections; ++dir) {
    const int s = neighbour(d, dir);
    if (s < 0 || !is_pawn(after.cell[s]) || after.cell[s] == colour) continue;
    const int t = beyond(d, dir);
    if (t >= 0 && t != kCentre && after.cell[t] == colour) ++e;
  }
  return e;
}

// Step 4: own pawns Q that could complete a sandwich with the pawn on `d` next turn (canEatSoon
// restricted to that pawn, §6.2), counted once each.
int attack_later_count(const Position& after, int d, int colour) {
  std::array<bool, kSquares> counted{};
  int e = 0;
  const bool open = centre_open(after);
  auto count = [&](int q) {
    if (!counted[q]) {
      counted[q] = true;
      ++e;
    }
  };
  for (int dir = 0; dir < kDirections; ++dir) {
    const int s = neighbour(d, dir);
    if (s < 0 || !is_pawn(after.cell[s]) || after.cell[s] == colour) continue;
    const int t = beyond(d, dir);
    if (t < 0 || t == kCentre || !holds_no_pawn(after, t)) continue;
    for (int k = 0; k < kDirections; ++k) {
      const int q = neighbour(t, k);
      if (q >= 0 && after.cell[q] == colour) count(q);
    }
    if (adjacent(t, kCentre) && open) {
      for (int k = 0; k < kDirections; ++k) {
        const int q = neighbour(kCentre, k);
        if (after.cell[q] == colour) count(q);
      }
    }
  }
  return e;
}

struct Plan {
  int pawn = -1;
  int dest = -1;  // the square clicked after the pawn (the centre for a walk); -1: random click
  int exit = -1;  // the walk's exit
  int target() const { return exit >= 0 ? exit : dest; }
};

// Calls visit(P, D) for the destinations D a plan weighs for pawn P: the empty entries of its
// candidate list, with the centre replaced by its empty neighbours appended at the end (§14
// step 2).
template <class Visit>
void for_each_weighed(const Position& pos, int p, Visit&& visit) {
  std::vector<int> list = candidate_list(pos, p);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const int d = list[i];
    if (pos.cell[d] != kEmpty) continue;
    if (d == kCentre) {
      for (int k = 0; k < kDirections; ++k) {
        const int n = neighbour(kCentre, k);
        if (pos.cell[n] == kEmpty) list.push_back(n);
      }
      continue;
    }
    visit(p, d);
  }
}

// The clicks of a planned move from p to d: through the centre when d is two squares from p
// and both are next to an open centre, else straight.
Plan route(const Position& pos, int p, int d) {
  Plan plan;
  plan.pawn = p;
  if (distance(p, d) == 2 && adjacent(p, kCentre) && adjacent(d, kCentre) && centre_open(pos)) {
    plan.dest = kCentre;
    plan.exit = d;
  } else {
    plan.dest = d;
  }
  return plan;
}

Plan defend(const Position& pos, int colour, const std::vector<int>& candidates) {
  Plan plan;
  int best = threatened_count(pos, colour);
  const bool closed = !centre_open(pos);
  for (int p : candidates) {
    for_each_weighed(pos, p, [&](int from, int d) {
      if (closed && adjacent(from, kCentre) && adjacent(d, kCentre)) return;
      const int n = threatened_count(moved(pos, from, d), colour);
      if (n < best) {
        best = n;
        plan = route(pos, from, d);
      }
    });
  }
  return plan;
}

Plan make_plan(const Position& pos, int colour, const std::vector<int>& candidates, Rng& rng) {
  Plan plan;
  // Step 2: attack now.
  int best = 0;
  for (int p : candidates) {
    for_each_weighed(pos, p, [&](int from, int d) {
      const int e = attack_now_count(moved(pos, from, d), d, colour);
      if (e > best) {
        best = e;
        plan = route(pos, from, d);
      }
    });
  }
  if (plan.pawn >= 0) return plan;
  // Step 3: defend now.
  plan = defend(pos, colour, candidates);
  if (plan.pawn >= 0) return plan;
  // Step 4: attack later; the suicide filter compares the pawn's own threat (0 or 1) with the
  // number of the side's threatened pawns before the move (a quirk kept on purpose).
  const int threatened_before = threatened_count(pos, colour);
  best = 0;
  for (int p : candidates) {
    for_each_weighed(pos, p, [&](int from, int d) {
      const Position after = moved(pos, from, d);
      if ((is_threatened(after, d) ? 1 : 0) > threatened_before) return;
      const int e = attack_later_count(after, d, colour);
      if (e > best) {
        best = e;
        plan = route(pos, from, d);
      }
    });
  }
  if (plan.pawn >= 0) return plan;
  // Step 5: defend again (identical to step 3), then a uniformly random pawn.
  plan = defend(pos, colour, candidates);
  if (plan.pawn >= 0) return plan;
  plan.pawn = candidates[rng.below(static_cast<std::uint32_t>(candidates.size()))];
  return plan;
}

std::vector<int> in_pawn_order(const Position& pos, std::vector<int> squares) {
  std::sort(squares.begin(), squares.end(),
            [&pos](int a, int b) { return pos.pawn_id[a] < pos.pawn_id[b]; });
  return squares;
}

std::vector<int> accepted(const Turn& t) {
  std::array<std::uint8_t, kSquares> out;
  const int n = t.choices(out);
  return std::vector<int>(out.begin(), out.begin() + n);
}

int random_of(const std::vector<int>& v, Rng& rng) {
  return v[rng.below(static_cast<std::uint32_t>(v.size()))];
}

}  // namespace

std::vector<int> candidate_list(const Position& pos, int from) {
  std::vector<int> list;
  const int colour = pos.cell[from];
  const std::uint8_t jumps = jump_directions(pos.players, colour);
  for (int d = 0; d < kDirections; ++d) {
    const int nb = neighbour(from, d);
    if (nb < 0 || pos.cell[nb] == kWall) continue;
    if (pos.cell[nb] == kEmpty) {
      if (nb == kCentre && !centre_open(pos)) continue;
      list.push_back(nb);
      continue;
    }
    if (from == kCentre || !(jumps & (1u << d))) continue;
    const int landing = beyond(from, d);
    if (landing < 0 || landing == kCentre || pos.cell[landing] != kEmpty) continue;
    list.push_back(nb);
    list.push_back(landing);
  }
  return list;
}

bool is_threatened(const Position& pos, int x) {
  const int own = pos.cell[x];
  if (!is_pawn(own)) return false;
  int open = -1;
  const auto& nb = table().nb[x];
  for (int dir = 0; dir < kDirections; ++dir) {
    const int s = nb[dir];
    if (s < 0 || !is_pawn(pos.cell[s]) || pos.cell[s] == own) continue;
    const int enemy = pos.cell[s];
    const int t = nb[7 - dir];  // the other side of x from s
    if (t < 0 || t == kCentre) continue;
    if (pos.cell[t] == enemy) return true;
    if (!holds_no_pawn(pos, t)) continue;
    if (has_neighbour_of(pos, t, enemy)) return true;
    if (adjacent(t, kCentre)) {
      if (open < 0) open = centre_open(pos) ? 1 : 0;
      if (open == 1 && has_neighbour_of(pos, kCentre, enemy)) return true;
    }
  }
  return false;
}

int threatened_count(const Position& pos, int colour) {
  int n = 0;
  int left = pos.count[colour];
  for (int sq = 0; sq < kSquares && left > 0; ++sq) {
    if (pos.cell[sq] != colour) continue;
    --left;
    if (is_threatened(pos, sq)) ++n;
  }
  return n;
}

Move classic_turn(const Position& start, bool pass_when_stuck, Rng& rng) {
  Turn t(start, pass_when_stuck);
  Plan plan;
  // Wasted clicks are bounded in practice; the guard only protects against a bug.
  for (int guard = 0; guard < 100000 && !t.done(); ++guard) {
    const Position& pos = t.position();
    const int colour = t.seat();
    switch (t.phase()) {
      case Turn::Phase::kSelect: {
        plan = make_plan(pos, colour, pawns_in_order(pos, colour), rng);
        int click = plan.dest;
        if (click < 0) {
          const std::vector<int> list = candidate_list(pos, plan.pawn);
          if (list.empty()) break;  // nothing to click: plan again
          click = random_of(list, rng);
          if (pos.cell[click] != kEmpty) break;  // an occupied entry deselects: plan again
        }
        if (!t.accepts(plan.pawn)) break;
        t.choose(plan.pawn);
        t.choose(click);
        break;
      }
      case Turn::Phase::kCentreExit: {
        if (plan.exit >= 0 && t.accepts(plan.exit)) {
          t.choose(plan.exit);
          break;
        }
        std::vector<int> empty;
        for (int k = 0; k < kDirections; ++k) {
          const int n = neighbour(kCentre, k);
          if (pos.cell[n] == kEmpty) empty.push_back(n);
        }
        const int click = random_of(empty, rng);
        if (t.accepts(click)) t.choose(click);  // the origin is refused: asked again
        break;
      }
      case Turn::Phase::kRefillFrom: {
        plan = make_plan(pos, colour, in_pawn_order(pos, accepted(t)), rng);
        t.choose(plan.pawn);
        const std::vector<int> targets = accepted(t);
        const int want = plan.target();
        if (std::find(targets.begin(), targets.end(), want) != targets.end()) {
          t.choose(want);
        } else {
          t.choose(random_of(targets, rng));
        }
        break;
      }
      case Turn::Phase::kDestination:
      case Turn::Phase::kRefillTo:
        t.choose(random_of(accepted(t), rng));
        break;
      case Turn::Phase::kStuck:
      case Turn::Phase::kDone:
        return t.token();
    }
  }
  return t.token();
}

}  // namespace plateau::biloba
