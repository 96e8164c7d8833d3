#pragma once
// Phutball's exact win-in-one search for the AI (specs/phutball.md §13.2, §13.3): a DFS over
// jump states (ball point, men left), each visited once, stopping at the first landing that wins
// for the side to move. Deciding win-in-one is NP-complete in general; the de-duplication makes
// it fast in practice (the 7×7 block of TV-20 has 955,182 states).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace plateau::phutball {

class PhutballState;

struct JumpSearch {
  std::vector<std::uint16_t> win;  // a winning path (ball cell, landings), empty if none found
  int best_row = 0;                // the best non-final row a legal jump can reach for the mover
                                   // (the ball's row if no jump advances)
  std::size_t states = 0;          // jump states visited
  bool complete = true;            // false if the budget stopped the search (no proof of "no win")
};

// Searches the jumps of the side to move of `state` (ending rules of the state: own goals,
// superko), visiting at most `budget` jump states; `stop` (optional) is polled every
// kStopPollStates states and ends the search (complete = false) once it returns true.
JumpSearch search_jumps(const PhutballState& state, std::size_t budget,
                        const std::function<bool()>& stop = {});

// Work bounds of Phutball's AI hooks that take no WorkBudget (jump states per call): the
// evaluation's look at the mover's best jump, and the playout policy's win check and move list.
inline constexpr std::size_t kEvalJumpStates = 4000;
inline constexpr std::size_t kPlayoutJumpStates = 4000;

// The evaluation (PhutballState::evaluate) takes the ball's row after the mover's best jump and
// adds this share of the rows the other side's best jump would gain if it were its turn (its
// threats, which the mover may still spoil). 0 here, or less than the whole of the mover's jump,
// makes the value swing with the side to move and breaks the level ladder (docs/AI.md).
inline constexpr double kEvalOtherJumpWeight = 0.25;

}  // namespace plateau::phutball
