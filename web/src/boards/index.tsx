// The per-game parts of the browser client, by registry name: how a game's position string is
// drawn and which points its move notation touches (for the last-move mark). With the rules
// pages (rules/pages.tsx), the per-game folders (boards/GAME/: its board and position parser) and
// their strings (boards/strings.ts), the only place in web/src that names a game; everything else
// asks here or /api/games (lobby/games.ts). A new game adds one entry here, its folder and its
// rules pages.
import type { JSX } from 'preact';
import type { BoardInput } from './types';
import { BOHNDUELL_COLOURS, BohnDuellBoard } from './bohnduell/BohnDuellBoard';
import { PhutballBoard } from './phutball/PhutballBoard';
import { BILOBA_COLOURS, BilobaBoard } from './biloba/BilobaBoard';
import { bohnDuellMarks, parseBohnDuell } from './bohnduell/view';
import { parsePhutball, phutballMarks, phutballRows } from './phutball/view';
import { bilobaMarks, bilobaPawnCounts, parseBiloba } from './biloba/view';

export interface BoardProps extends BoardInput {
  position: string; // State::serialize() of the game
  options: string; // the table's options ("handicap=0.5"): some boards depend on them
  names?: string[]; // players by game seat
}

export interface GameBoard {
  render: (props: BoardProps) => JSX.Element;
  // The points, squares or bowls `move` (canonical notation, played by the seat labelled
  // `seatLabel`) touches.
  marks: (move: string, seatLabel: string) => string[];
  // What each game seat has on the board, for the result and the seat list (BohnDuell: the
  // balls in its store; Biloba: its pawns); absent where a game keeps no count (Phutball).
  score?: (position: string) => number[];
  // The unit of the score in the seat list ("pawns"), an i18n key taking {n}.
  scoreText?: string;
  // The colour of each game seat's pieces, for the swatch next to its player's name.
  colours?: string[];
}

const BOARDS: Record<string, GameBoard> = {
  bohnduell: {
    render: (p) => <BohnDuellBoard {...p} view={parseBohnDuell(p.position)} />,
    marks: bohnDuellMarks,
    score: (position) => parseBohnDuell(position).sides.map((side) => side.store),
    scoreText: 'bohnduell.inStore',
    colours: BOHNDUELL_COLOURS,
  },
  phutball: {
    render: (p) => <PhutballBoard {...p} view={parsePhutball(p.position, phutballRows(p.options))} />,
    marks: phutballMarks,
  },
  biloba: {
    render: (p) => <BilobaBoard {...p} view={parseBiloba(p.position)} />,
    marks: bilobaMarks,
    score: bilobaPawnCounts,
    scoreText: 'biloba.pawns',
    colours: ['O', 'B', 'R', 'G'].map((c) => BILOBA_COLOURS[c]),
  },
};

// The board of `game`, undefined for a game this client cannot draw.
export function boardOf(game: string): GameBoard | undefined {
  return Object.prototype.hasOwnProperty.call(BOARDS, game) ? BOARDS[game] : undefined;
}

// Whether this client can show tables of `game`.
export const hasBoard = (game: string): boolean => boardOf(game) !== undefined;

// The marks of a move of `game` ([] for a game without a board).
export function moveMarks(game: string, move: string, seatLabel: string): string[] {
  return boardOf(game)?.marks(move, seatLabel) ?? [];
}

// The per-seat counts of a position of `game` (undefined where the game keeps none, or for a
// position that does not parse).
export function boardScore(game: string, position: string | undefined): number[] | undefined {
  const score = boardOf(game)?.score;
  if (!score || !position) return undefined;
  try {
    return score(position);
  } catch {
    return undefined;
  }
}
