// Replay of a game step by step: the record gives the moves, the server the position after
// each ply (`show BOARD#n`), so the browser never re-plays rules itself. Buttons, a click on a
// move, or the keys ← → Home End move through the game; the move just made is marked.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Session } from '../state/session';
import { Board } from './Board';
import { MoveList } from './MoveList';
import { playedMoves, recordSeats, recordTag, withPasses } from './record';
import { moveMarks } from '../boards';
import { t } from '../i18n';
import { gameTitle, seatLabels, useGames } from '../lobby/games';
import { playerName } from '../lobby/listing';
import { Icon } from './icons';
import { AnalysisPanel } from '../analysis/AnalysisPanel';
import { RecordExport } from '../analysis/RecordExport';
import type { LineMove } from '../analysis/analysis';

interface Props {
  session: Session;
  game: string;
  board: number;
}

export function ReplayView({ session, game, board }: Props) {
  const [record, setRecord] = useState('');
  const [result, setResult] = useState('');
  const [options, setOptions] = useState('');
  const [players, setPlayers] = useState<string[]>([]);
  const [ply, setPly] = useState(0);
  const [shown, setShown] = useState<{ ply: number; position: string } | undefined>();
  const wanted = useRef(0);
  const [preview, setPreview] = useState<LineMove | undefined>();
  const conn = session.connection;
  // A numbered record names no seats: the moves take the game's labels (record.ts).
  const info = useGames().find((g) => g.name === game);
  const labels = seatLabels(info, players.length || (info?.min_seats ?? 0));
  const moves = useMemo(() => playedMoves(record, labels), [record, labels.join(' ')]);
  // An invisible table's record is served only with its key (sent in its table events).
  const recordUrl = session.table(game, board).record ?? `/records/${game}/${board}`;

  useEffect(() => {
    fetch(recordUrl)
      .then((r) => r.text())
      .then((text) => {
        setRecord(text);
        setResult(recordTag(text, 'Result') ?? '');
        setOptions(recordTag(text, 'Options') ?? '');
        setPlayers(recordSeats(text));
      });
  }, [game, board]);

  useEffect(() => {
    wanted.current = ply;
    conn.request(`${game} show ${board}#${ply}`, 'board')
      .then((e) => {
        // Answers to earlier steps that arrive late are dropped.
        if (wanted.current === ply) setShown({ ply, position: String(e.position) });
      })
      .catch(() => undefined);
  }, [ply, game, board]);

  const go = (n: number) => setPly(Math.max(0, Math.min(moves.length, n)));
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'ArrowRight') go(ply + 1);
      else if (e.key === 'ArrowLeft') go(ply - 1);
      else if (e.key === 'Home') go(0);
      else if (e.key === 'End') go(moves.length);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const played = shown && shown.ply > 0 ? moves[shown.ply - 1] : undefined;
  return (
    <section class="replay" data-ply={ply} data-shown-ply={shown?.ply ?? -1}
      data-total={moves.length}>
      <h2>{t('replay.title', { game: gameTitle(game), board })}</h2>
      {players.length > 0 && <p class="replay-players">{players.map(playerName).join(' – ')}</p>}
      {shown && (
        <Board game={game} position={preview?.position ?? shown.position} steps={[]} prefix={[]}
          options={options}
          lastMove={preview ? moveMarks(game, preview.move, preview.seat)
            : played ? moveMarks(game, played.text, played.seat) : []} />
      )}
      <div class="replay-controls">
        <button data-action="first" onClick={() => go(0)} aria-label={t('replay.first')}><Icon name="first" /></button>
        <button data-action="previous" onClick={() => go(ply - 1)} aria-label={t('replay.previous')}><Icon name="previous" /></button>
        <span class="replay-ply">{t('replay.ply', { ply, total: moves.length })}</span>
        <button data-action="next" onClick={() => go(ply + 1)} aria-label={t('replay.next')}><Icon name="next" /></button>
        <button data-action="last" onClick={() => go(moves.length)} aria-label={t('replay.last')}><Icon name="last" /></button>
      </div>
      <AnalysisPanel session={session} game={game} board={board} ply={ply} labels={labels}
        viewer={labels[players.indexOf(session.state.user ?? '')]} preview={preview}
        onPreview={setPreview} />
      <MoveList moves={withPasses(moves, labels)} current={ply} onSelect={go} />
      <p class="replay-result">{t('replay.result', { result })}</p>
      <RecordExport url={recordUrl} game={game} board={board} />
      <a href={`#/rules/${game}`}>{t('nav.rules')}</a>
    </section>
  );
}
