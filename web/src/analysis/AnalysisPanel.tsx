// Analysis mode (issue 17 item 7): an "Analyse" button (or the A key) asks the server's bot about
// the position shown (`analyse BOARD#n LEVEL`); the evaluation bar shows its verdict turned to
// the viewer, and the expected line is a list of moves, each of which shows the position after
// it (`onPreview`; the server sends those positions, the browser plays no rule). While the mode
// is on, a new position shown (a move played, a step in the replay) is analysed again.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Session } from '../state/session';
import { t } from '../i18n';
import type { Analysis, LineMove } from './analysis';
import { DEFAULT_LEVEL, LEVELS, analyseCommand, barPercent, readAnalysis, viewerBar } from './analysis';
import './analysis.css';

interface Props {
  session: Session;
  game: string;
  board: number;
  ply: number; // the position shown: plies played
  labels: string[]; // the game's seat labels by game seat
  viewer?: string; // the viewer's seat label (a player), else the side to move's view
  preview?: LineMove; // the line move whose position the board shows now
  onPreview: (move: LineMove | undefined) => void;
  stepLink?: string; // where to step through the record (the replay), from the table view
}

// A step in the replay waits this long before asking, so that running through the moves asks
// once, for where it stops (the server bounds analyses per user).
const SETTLE_MS = 250;

export function AnalysisPanel(props: Props) {
  const { session, game, board, ply, labels, viewer, preview, onPreview } = props;
  const [on, setOn] = useState(false);
  const [level, setLevel] = useState(DEFAULT_LEVEL);
  const [result, setResult] = useState<Analysis | undefined>();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const wanted = useRef('');
  const inFlight = useRef(false);

  const analyse = async () => {
    const key = `${ply} ${level}`;
    wanted.current = key;
    if (inFlight.current) return; // asked again for `wanted` when the answer comes
    inFlight.current = true;
    setBusy(true);
    try {
      for (;;) {
        const asked = wanted.current;
        const [p, l] = asked.split(' ');
        try {
          const e = await session.connection.request(analyseCommand(game, board, Number(p), l), 'analysis');
          if (wanted.current === asked) {
            setResult(readAnalysis(e));
            setError('');
          }
        } catch (err) {
          if (wanted.current === asked) {
            setResult(undefined);
            setError((err as Error).message);
          }
        }
        if (wanted.current === asked) break;
      }
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  const start = () => {
    setOn(true);
    onPreview(undefined);
    analyse();
  };

  // A new position (or level) while the mode is on: the preview ends, the bot is asked again.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (!on) return;
    onPreview(undefined);
    const timer = setTimeout(analyse, SETTLE_MS);
    return () => clearTimeout(timer);
  }, [ply, level]);

  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (e.key !== 'a' && e.key !== 'A') return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
      e.preventDefault();
      start();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const shown = result && result.ply === ply ? result : undefined;
  const bar = shown ? viewerBar(shown, labels, viewer) : undefined;
  return (
    <section class="analysis" aria-label={t('analysis.title')} data-state={
      !on ? 'off' : busy ? 'busy' : error ? 'error' : shown ? 'done' : 'idle'}
      data-ply={shown?.ply ?? -1}>
      <div class="analysis-controls">
        <button class={on ? '' : 'primary'} data-action="analyse" onClick={start}
          title={t('analysis.analyseHint')} aria-keyshortcuts="A">
          {on ? t('analysis.again') : t('analysis.analyse')}
        </button>
        <label>
          {t('analysis.level')}{' '}
          <select data-field="analysis-level" value={level}
            onChange={(e) => setLevel((e.target as HTMLSelectElement).value)}>
            {LEVELS.map((l) => <option value={l}>{t('analysis.levelN', { n: l })}</option>)}
          </select>
        </label>
        {on && (
          <button data-action="close-analysis" onClick={() => {
            setOn(false);
            onPreview(undefined);
          }}>{t('analysis.close')}</button>
        )}
      </div>
      {on && busy && <p class="analysis-busy" role="status">{t('analysis.thinking')}</p>}
      {on && error && <p class="error" role="alert">{error}</p>}
      {on && shown && bar && (
        <div class="analysis-result">
          <div class="eval-bar" role="meter" aria-valuemin={-1} aria-valuemax={1}
            aria-valuenow={bar.value} aria-label={t('analysis.bar', { seat: bar.seat })}
            aria-valuetext={t('analysis.barValue', { value: bar.value.toFixed(3), seat: bar.seat })}
            data-value={bar.value} data-seat={bar.seat}>
            <div class="eval-fill" style={{ width: `${barPercent(bar.value)}%` }} />
            <span class="eval-label">{`${bar.seat} ${bar.value >= 0 ? '+' : ''}${bar.value.toFixed(2)}`}</span>
          </div>
          <p class="analysis-best" data-best={shown.best}>
            {t('analysis.best', { ply: shown.ply + 1, move: shown.best, seat: shown.seat })}
          </p>
          <p class="analysis-score">
            {shown.score === null ? t('analysis.noScore')
              : `${t('analysis.score', { seat: shown.seat, score: shown.score.toFixed(3) })}` +
                (shown.exact ? ` (${t('analysis.proven')})` : '')}
          </p>
          {shown.exactValue !== undefined && (
            <p class="analysis-exact" data-exact-value={shown.exactValue}>
              {t('analysis.exactValue', { seat: shown.seat, value: shown.exactValue })}</p>
          )}
          <h4 id="analysis-line-title">{t('analysis.line')}</h4>
          <ol class="analysis-line" aria-labelledby="analysis-line-title">
            {shown.line.map((m) => (
              <li value={m.ply} class={preview?.ply === m.ply ? 'current' : ''}>
                <button data-line-ply={m.ply} aria-label={t('analysis.lineMove', { seat: m.seat, move: m.move })}
                  aria-pressed={preview?.ply === m.ply}
                  onClick={() => onPreview(preview?.ply === m.ply ? undefined : m)}>
                  {`${m.seat}: ${m.move}`}
                </button>
              </li>
            ))}
          </ol>
          {preview && (
            <p class="analysis-preview" role="status">
              {t('analysis.previewing', { seat: preview.seat, move: preview.move })}{' '}
              <button data-action="end-preview" onClick={() => onPreview(undefined)}>
                {t('analysis.endPreview')}</button>
            </p>
          )}
          <p class="analysis-stats">{t('analysis.stats', { level: shown.level, nodes: shown.nodes, ms: shown.ms })}</p>
        </div>
      )}
      {on && props.stepLink && (
        <p><a href={props.stepLink} data-action="step-through">{t('analysis.step')}</a></p>
      )}
    </section>
  );
}
