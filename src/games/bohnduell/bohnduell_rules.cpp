#include "games/bohnduell/bohnduell_rules.h"

namespace plateau::bohnduell {

Position start_position(const Rules& rules) {
  Position pos;
  for (Side& s : pos.side) s.supply = static_cast<std::uint8_t>(rules.supply);
  return pos;
}

bool is_legal(const Rules& rules, const Position& pos, int seat, int code) {
  if (pos.over || code < 0 || code >= kNumMoveCodes) return false;
  const Side& me = pos.side[seat];
  const int d = bowl_of(code);
  if (is_supply(code)) {
    return rules.short_supply_partial ? me.supply >= 1 : me.supply >= 5 - d;
  }
  return me.bowl[d] == d;
}

bool has_legal_move(const Rules& rules, const Position& pos, int seat) {
  (void)rules;  // S4 costs 1 under both short_supply values (§5)
  const Side& me = pos.side[seat];
  if (me.supply >= 1) return true;
  for (int d = 1; d <= kBowls; ++d) {
    if (me.bowl[d] == d) return true;
  }
  return false;
}

unsigned legal_mask(const Rules& rules, const Position& pos) {
  if (pos.over) return 0;
  unsigned mask = 0;
  for (int code = 0; code < kNumMoveCodes; ++code) {
    if (is_legal(rules, pos, pos.to_move, code)) mask |= 1u << code;
  }
  return mask;
}

namespace {

// The steal of §4.1 into `me` from `other` for own bowl d that was empty before receiving.
int steal(const Rules& rules, Side& me, Side& other, int d) {
  const int o = opposite_bowl(rules, d);
  const int taken = other.bowl[o];
  if (taken == 0) return 0;
  other.bowl[o] = 0;
  me.store = static_cast<std::uint8_t>(me.store + taken);
  if (rules.sower_to_store) {
    me.bowl[d] = static_cast<std::uint8_t>(me.bowl[d] - 1);
    me.store = static_cast<std::uint8_t>(me.store + 1);
  }
  return taken;
}

}  // namespace

void settle_turn(const Rules& rules, Position& pos, int mover, bool after_harvest) {
  const int other = 1 - mover;
  if (rules.extra_turn && after_harvest && has_legal_move(rules, pos, mover)) {
    pos.to_move = static_cast<std::int8_t>(mover);
  } else if (has_legal_move(rules, pos, other)) {
    pos.to_move = static_cast<std::int8_t>(other);
  } else if (has_legal_move(rules, pos, mover)) {
    pos.to_move = static_cast<std::int8_t>(mover);  // the opponent passes (§5)
  } else {
    pos.over = true;
    pos.to_move = 0;  // meaningless once over; fixed so that equal positions compare equal
  }
}

int apply_move(const Rules& rules, Position& pos, int code) {
  const int mover = pos.to_move;
  Side& me = pos.side[mover];
  Side& other = pos.side[1 - mover];
  const int k = bowl_of(code);
  int stolen = 0;
  if (is_supply(code)) {
    std::array<bool, kBowls + 1> was_empty{};
    // Target first, then the bowls behind it; a partial move stops when the supply runs out.
    for (int d = k; d <= kBowls && me.supply > 0; ++d) {
      was_empty[d] = me.bowl[d] == 0;
      me.bowl[d] = static_cast<std::uint8_t>(me.bowl[d] + 1);
      me.supply = static_cast<std::uint8_t>(me.supply - 1);
    }
    if (rules.steal_any) {
      for (int d = k; d <= kBowls; ++d) {
        if (was_empty[d]) stolen += steal(rules, me, other, d);
      }
    } else if (was_empty[k]) {
      stolen += steal(rules, me, other, k);
    }
  } else {
    std::array<bool, kBowls + 1> was_empty{};
    me.bowl[k] = 0;
    for (int j = k - 1; j >= 1; --j) {
      was_empty[j] = me.bowl[j] == 0;
      me.bowl[j] = static_cast<std::uint8_t>(me.bowl[j] + 1);
    }
    me.store = static_cast<std::uint8_t>(me.store + 1);
    if (rules.steal_on_harvest) {
      for (int j = k - 1; j >= 1; --j) {
        if (was_empty[j]) stolen += steal(rules, me, other, j);
      }
    }
  }
  settle_turn(rules, pos, mover, !is_supply(code));
  return stolen;
}

int score(const Rules& rules, const Position& pos, int seat) {
  const Side& s = pos.side[seat];
  int total = s.store;
  if (rules.leftovers_owner) {
    for (int d = 1; d <= kBowls; ++d) total += s.bowl[d];
  }
  return total;
}

}  // namespace plateau::bohnduell
