// Picks the board component of a game and feeds it the position string's view. The wrapper
// carries the position and the marked last move as data attributes (for tests and tools).
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
  let board;
  switch (props.game) {
    case 'bohnduell':
      board = <BohnDuellBoard {...props} view={parseBohnDuell(props.position)} />;
      break;
    case 'phutball':
      board = <PhutballBoard {...props} view={parsePhutball(props.position, props.rows ?? 19)} />;
      break;
    case 'biloba':
      board = <BilobaBoard {...props} view={parseBiloba(props.position)} />;
      break;
    default:
      return <p>Unknown game {props.game}</p>;
  }
  return (
    <div class="board" data-game={props.game} data-position={props.position}
      data-last={(props.lastMove ?? []).join(' ')} data-prefix={props.prefix.join(' ')}>
      {board}
    </div>
  );
}
