// Biloba: the 9×9 board with cut corners, the star-patterned centre e5 and pawns in four
// colours (specs/biloba.md §1, §15). Squares are named a1..i9 (file a..i = x, rank 9 - y).
import './BilobaBoard.css';
import type { BilobaView } from './view';
import { squareName } from './view';
import type { BoardInput } from '../types';
import { useCursor } from '../cursor';
import { t } from '../../i18n';

interface Props extends BoardInput {
  view: BilobaView;
}

const SQ = 50;
export const BILOBA_COLOURS: Record<string, string> = {
  O: '#f39c12', B: '#2471a3', R: '#c0392b', G: '#229954',
};
const COLOURS = BILOBA_COLOURS;

const centre = (name: string) => ({
  x: ('abcdefghi'.indexOf(name[0]) + 0.5) * SQ,
  y: (9 - Number(name.slice(1)) + 0.5) * SQ,
});

export function BilobaBoard(props: Props) {
  const { view, steps, prefix, lastMove, onStep } = props;
  const legal = new Set(steps);
  const selected = new Set(prefix);
  const last = new Set(lastMove ?? []);
  // A player's board stays focusable between turns, so keyboard play goes on after each move.
  const interactive = Boolean(onStep);
  const anchor = prefix.length > 0 ? centre(prefix[prefix.length - 1]) : centre('e5');
  const { cursor, onKeyDown } = useCursor(
    steps.map((name) => ({ name, ...centre(name) })), onStep, anchor);
  const cells = [];
  for (let y = 0; y < 9; y++) {
    for (let x = 0; x < 9; x++) {
      const cell = view.cells[y][x];
      if (cell === '#') continue;
      const name = squareName(x, y);
      const clickable = legal.has(name) && onStep;
      const classes = ['square', cell === '*' || (x === 4 && y === 4) ? 'centre' : '',
        selected.has(name) ? 'selected' : '', last.has(name) ? 'last' : '',
        clickable ? 'clickable' : '', cursor === name ? 'cursor' : ''].filter(Boolean).join(' ');
      cells.push(
        <g data-square={name} class={classes} onClick={clickable ? () => onStep!(name) : undefined}>
          <rect x={x * SQ} y={y * SQ} width={SQ} height={SQ} />
          {x === 4 && y === 4 && (
            <polygon class="star" points={star(x * SQ + SQ / 2, y * SQ + SQ / 2)} />
          )}
          {'OBRG'.includes(cell) && (
            <circle cx={x * SQ + SQ / 2} cy={y * SQ + SQ / 2} r={15} fill={COLOURS[cell]}
              class="pawn" data-pawn={cell} />
          )}
          {/* Marked also where nobody may click: the rules pages show a pawn's targets. */}
          {legal.has(name) && <circle cx={x * SQ + SQ / 2} cy={y * SQ + SQ / 2} r={6} class="target" />}
          {cursor === name && (
            <rect class="cursor-ring" x={x * SQ + 3} y={y * SQ + 3} width={SQ - 6} height={SQ - 6} />
          )}
        </g>,
      );
    }
  }
  return (
    <svg class="biloba-board" viewBox={`-30 -10 ${9 * SQ + 40} ${9 * SQ + 40}`} role="img"
      aria-label={cursor ? t('board.cursor', { board: t('board.biloba'), at: cursor }) : t('board.biloba')}
      tabindex={interactive ? 0 : undefined}
      data-cursor={cursor} onKeyDown={interactive ? onKeyDown : undefined}>
      <polygon class="frame" points={octagon()} />
      {cells}
      {[...'abcdefghi'].map((file, x) => (
        <text class="coord" x={x * SQ + SQ / 2} y={9 * SQ + 22}>{file}</text>
      ))}
      {Array.from({ length: 9 }, (_, y) => (
        <text class="coord" x={-17} y={y * SQ + SQ / 2 + 5}>{9 - y}</text>
      ))}
    </svg>
  );
}

function star(cx: number, cy: number): string {
  const pts = [];
  for (let i = 0; i < 16; i++) {
    const r = i % 2 === 0 ? 22 : 10;
    const a = (i * Math.PI) / 8;
    pts.push(`${cx + r * Math.cos(a)},${cy + r * Math.sin(a)}`);
  }
  return pts.join(' ');
}

function octagon(): string {
  const s = 9 * SQ;
  const c = 2 * SQ;
  return [[c, 0], [s - c, 0], [s, c], [s, s - c], [s - c, s], [c, s], [0, s - c], [0, c]]
    .map(([x, y]) => `${x},${y}`).join(' ');
}
