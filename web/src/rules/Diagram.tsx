// One diagram of the rules pages: a real position (rules/diagrams.json) drawn by the game's own
// board component (boards/index.tsx), with the move being built, the clicks then offered and the
// last move marked as a table shows them; nothing can be clicked. The wrapper carries what it
// draws as data attributes, for the browser tests.
import { boardOf, moveMarks } from '../boards';
import { language } from '../i18n';
import type { DiagramData } from './pages';
import { RECORDS } from './pages';

// "O:g7-i5/g5-h5" -> ["O", "g7-i5/g5-h5"]; Phutball entries have no seat letter.
function splitEntry(entry: string): [string, string] {
  const colon = entry.indexOf(':');
  return colon > 0 ? [entry.slice(0, colon), entry.slice(colon + 1)] : ['', entry];
}

export function Diagram({ game, d }: { game: string; d: DiagramData }) {
  const board = boardOf(game);
  const record = RECORDS[d.record];
  if (!board || !record) return null;
  const lastEntry = d.last && d.plies > 0 ? record.moves[d.plies - 1] : undefined;
  const [seat, move] = lastEntry ? splitEntry(lastEntry) : ['', ''];
  const lastMove = lastEntry ? moveMarks(game, move, seat) : [];
  const caption = d.caption[language()] ?? d.caption.en;
  return (
    <figure class="diagram" data-record={d.record} data-plies={d.plies}>
      <div class="diagram-board" data-game={game} data-position={d.position}
        data-prefix={(d.prefix ?? []).join(' ')} data-steps={(d.steps ?? []).join(' ')}
        data-last={lastMove.join(' ')}>
        {board.render({ position: d.position, options: '', steps: d.steps ?? [], prefix: d.prefix ?? [],
          lastMove })}
      </div>
      <figcaption>{caption}</figcaption>
    </figure>
  );
}
