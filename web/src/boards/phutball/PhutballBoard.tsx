// Phutball: 15 columns × 19 rows of points (20 on a half-point handicap board), the goal
// lines (rows 1 and 19), the off-board rows beyond them, men, the ball and the jump path being
// built (specs/phutball.md §1, §9). The last move is marked (its men and path), and the ball
// slides to its new point.
import './PhutballBoard.css';
import type { PhutballView } from './view';
import { parsePoint, pointName, PHUTBALL_COLUMNS } from './view';
import type { BoardInput } from '../types';
import { useCursor } from '../cursor';
import { t } from '../../i18n';

interface Props extends BoardInput {
  view: PhutballView;
  names?: string[]; // by game seat: Ohs, Eks
}

const GAP = 26;
const MARGIN = 40;

export function PhutballBoard(props: Props) {
  const { view, steps, prefix, lastMove, onStep } = props;
  const rows = view.rows;
  const top = rows + 1; // off-board row beyond the top goal line
  const px = (column: number) => MARGIN + column * GAP;
  const py = (row: number) => MARGIN + (top - row) * GAP;
  const width = MARGIN * 2 + 14 * GAP;
  const height = MARGIN * 2 + (rows + 1) * GAP;
  const legal = new Set(steps);
  const men = new Set(view.men.map(pointName));
  const last = new Set(lastMove ?? []);
  const path = prefix.map(parsePoint);
  const lastPath = (lastMove ?? []).map(parsePoint);
  const at = (name: string) => {
    const p = parsePoint(name);
    return { x: px(p.column), y: py(p.row) };
  };
  const ball = { x: px(view.ball.column), y: py(view.ball.row) };
  const { cursor, onKeyDown } = useCursor(
    steps.map((name) => ({ name, ...at(name) })), onStep,
    prefix.length > 0 ? at(prefix[prefix.length - 1]) : ball);
  // Placements would highlight almost every point; highlight only once the ball is picked up.
  const showTargets = prefix.length > 0;
  const points = [];
  for (let row = 0; row <= top; row++) {
    for (let column = 0; column < 15; column++) {
      const name = pointName({ column, row });
      const offBoard = row === 0 || row === top;
      const clickable = legal.has(name) && onStep;
      const classes = ['point', clickable ? 'clickable' : '', last.has(name) ? 'last' : '',
        cursor === name ? 'cursor' : ''].filter(Boolean).join(' ');
      points.push(
        <g data-point={name} class={classes} onClick={clickable ? () => onStep!(name) : undefined}>
          <rect x={px(column) - GAP / 2} y={py(row) - GAP / 2} width={GAP} height={GAP}
            class={offBoard ? 'cell goal-zone' : 'cell'} />
          {men.has(name) && <circle cx={px(column)} cy={py(row)} r={9} class="man" />}
          {legal.has(name) && showTargets && <circle cx={px(column)} cy={py(row)} r={5} class="target" />}
          {cursor === name && (
            <circle class="cursor-ring" cx={px(column)} cy={py(row)} r={12} />
          )}
        </g>,
      );
    }
  }
  return (
    <svg class="phutball-board" viewBox={`0 0 ${width} ${height}`} role="img"
      aria-label={cursor ? t('board.cursor', { board: t('board.phutball'), at: cursor }) : t('board.phutball')}
      tabindex={onStep ? 0 : undefined} data-cursor={cursor}
      onKeyDown={onStep ? onKeyDown : undefined}>
      {Array.from({ length: rows }, (_, i) => i + 1).map((row) => (
        <line x1={px(0)} x2={px(14)} y1={py(row)} y2={py(row)}
          class={row === 1 || row === rows ? 'goal-line' : 'grid'} />
      ))}
      {Array.from({ length: 15 }, (_, c) => (
        <line x1={px(c)} x2={px(c)} y1={py(1)} y2={py(rows)} class="grid" />
      ))}
      {points}
      {/* The goal each side attacks (§6.1): Ohs scores beyond the top line, Eks beyond the bottom. */}
      <text class="goal-label" x={px(7)} y={py(top) + 4} data-goal="top">
        {t('phutball.goal', { who: props.names?.[0] ?? 'O' })}</text>
      <text class="goal-label" x={px(7)} y={py(0) + 4} data-goal="bottom">
        {t('phutball.goal', { who: props.names?.[1] ?? 'X' })}</text>
      {lastPath.length > 1 && (
        <polyline class="last-path"
          points={lastPath.map((p) => `${px(p.column)},${py(p.row)}`).join(' ')} />
      )}
      {path.length > 1 && (
        <polyline class="jump-path" points={path.map((p) => `${px(p.column)},${py(p.row)}`).join(' ')} />
      )}
      <circle cx={0} cy={0} r={10} class="ball" data-ball={pointName(view.ball)}
        style={{ transform: `translate(${ball.x}px, ${ball.y}px)` }} />
      {[...PHUTBALL_COLUMNS].map((letter, c) => (
        <text x={px(c)} y={height - 8} class="coord">{letter}</text>
      ))}
      {Array.from({ length: rows }, (_, i) => i + 1).map((row) => (
        <text x={12} y={py(row) + 4} class="coord">{row}</text>
      ))}
    </svg>
  );
}
