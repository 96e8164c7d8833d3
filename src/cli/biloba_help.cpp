#include "cli/biloba_tui.h"

namespace plateau::cli::biloba_tui {

namespace {

// Six pages, as the original's six help pictures (specs/biloba.md §15), but stating the rules
// the program really plays (§6.4: the draw rule and the help's own "draw" example, which is a
// win).
const char* const kPages[] = {
    R"(Biloba help 1/6: goal, board and moves
The goal is to remove the other players' pawns from the board.
2 players have 16 pawns each, 3 or 4 players 8 each. Orange (O) always starts, then
Blue (B), Red (R), Green (G). The board has 69 squares; # are not squares.

   a b c d e f g h i           A pawn steps to any free neighbouring square,
9  # # . . O . . # #  9        in all 8 directions, backwards too:
8  # . . O O O . . #  8
7  . . O O O O O . .  7              . . .
6  . O O O O O O O .  6              . O .
5  . . . . * . . . .  5              . . .
4  . B B B B B B B .  4
3  . . B B B B B . .  3
2  # . . B B B . . #  2
1  # # . . B . . # #  1
   a b c d e f g h i
)",
    R"(Biloba help 2/6: jumps and captures
A pawn may instead jump over ONE neighbouring pawn (any colour, yours too) to the free
square just beyond it. A jump never goes backwards (for Orange in 2 players: never up the
board; sideways is fine) and captures nothing. One step or one jump per turn: no chains.

    . X X X .        O = the pawn, X = where it may land over the pawns o
    . o o o .        (Orange in a 2-player game jumps down or sideways only)
    X o O o X

A pawn is CAPTURED when it is caught between two of your pawns on a line (row, column
or diagonal): O B O takes the B. Only lines of exactly three count: O B B O takes nothing.
)",
    R"(Biloba help 3/6: refills
Each captured pawn's square is refilled by one of the two pawns that took it: you choose,
by clicking the capturer and then the empty square. All pawns taken by one move are
removed first, then the refills are made. A pawn refills at most once per capture, so a
square can stay empty when both its capturers were used elsewhere.

    O B O      ->    O . O     ->    . O O
                   (B removed)     (left O refills)

Typing a turn at once: f3-e4/c4-d4 = move f3 to e4, then refill d4 with the pawn on c4.
)",
    R"(Biloba help 4/6: chains and forced takes
If a refill makes a new sandwich, that pawn is taken too and refilled again, as often as
needed, in the same turn. Taking is mandatory and unlimited.

If your turn starts with an enemy pawn already caught between two of yours (it moved in
there, or a refill left it there), you take it and refill, and your turn is OVER: no move.
With 3 or 4 players such a sandwich waits for its owner's turn and is taken then only if
it still exists.
)",
    R"(Biloba help 5/6: the centre square e5 (*)
A pawn may step onto e5 only when one of its 8 neighbours is free, and must at once step
off again to a free neighbour other than the square it came from (type d6-e5-f5, or
click d6, e5, f5). Nobody stops on e5, and no jump starts on, lands on or crosses it.

    . . .
    O * .      d6 may walk d6-e5-f5, d6-e5-f4, ... (any free neighbour of e5)
    . . .
)",
    R"(Biloba help 6/6: the end of the game (the rules this program really plays)
At the start of each of your turns, after any forced take, if you have 1 or 2 pawns and no
capture looks possible soon, all your pawns are removed and you are out.
The game ends when at most one player has pawns left (or, with 2 players, 2 against 2).
The winner is the only player with at least 2 pawns; otherwise it is a Draw. A lone
survivor with one pawn is a Draw too.
The original help page calls one position a draw that the program scores as a WIN: after
a forced take leaves 2 against 2, the side to move is tested and, with no capture in
sight, eliminated - so the other side wins.
A player with no legal move waits in network games (use "end"), and passes in local games.
)",
};

}  // namespace

int help_page_count() { return static_cast<int>(sizeof kPages / sizeof kPages[0]); }

std::string help_page(int page) {
  if (page < 1 || page > help_page_count()) page = 1;
  return kPages[page - 1];
}

}  // namespace plateau::cli::biloba_tui
