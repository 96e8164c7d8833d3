// Picks the board component of a game and feeds it the position string's view.
import type { BoardInput } from '../boards/types';
import { BohnDuellBoard } from '../boards/BohnDuellBoard';
import { PhutballBoard } from '../boards/PhutballBoard';
import { BilobaBoard } from '../boards/BilobaBoard';
import { parseBohnDuell } from '../views/bohnduell';
import { parsePhutball } from '../views/phutball';
import { parseBiloba } from '../views/biloba';

interface Props extends BoardInput {
  game: string; // registry name: bohnduell, phutball, biloba
  position: string; // State::serialize() of the game
  rows?: number; // Phutball: 20 on a half-point handicap board
  names?: string[];
}

export function Board(props: Props) {
  switch (props.game) {
    case 'bohnduell':
      return <BohnDuellBoard {...props} view={parseBohnDuell(props.position)} />;
    case 'phutball':
      return <PhutballBoard {...props} view={parsePhutball(props.position, props.rows ?? 19)} />;
    case 'biloba':
      return <BilobaBoard {...props} view={parseBiloba(props.position)} />;
    default:
      return <p>Unknown game {props.game}</p>;
  }
}
