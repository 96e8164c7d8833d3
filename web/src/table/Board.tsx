// Picks the board component of a game (boards/index.tsx) and feeds it the position. The wrapper
// carries the position and the marked last move as data attributes (for tests and tools).
import type { BoardProps } from '../boards';
import { boardOf } from '../boards';

interface Props extends Omit<BoardProps, 'options'> {
  game: string; // registry name
  options?: string; // the table's options
}

export function Board(props: Props) {
  const board = boardOf(props.game);
  if (!board) return <p>Unknown game {props.game}</p>;
  return (
    <div class="board" data-game={props.game} data-position={props.position}
      data-last={(props.lastMove ?? []).join(' ')} data-prefix={props.prefix.join(' ')}>
      {board.render({ ...props, options: props.options ?? '' })}
    </div>
  );
}
