// Replay of a game step by step: the record gives the moves, the server the position after
// each ply (`show BOARD#n`), so the browser never re-plays rules itself.
import { useEffect, useState } from 'preact/hooks';
import type { Session } from '../state/session';
import { Board } from './Board';
import { MoveList } from './MoveList';
import { recordMoves, recordTag } from './record';
import type { RecordMove } from './record';
import { t } from '../i18n';

interface Props {
  session: Session;
  game: string;
  board: number;
}

export function ReplayView({ session, game, board }: Props) {
  const [moves, setMoves] = useState<RecordMove[]>([]);
  const [result, setResult] = useState('');
  const [ply, setPly] = useState(0);
  const [position, setPosition] = useState<string | undefined>();
  const conn = session.connection;

  useEffect(() => {
    fetch(`/records/${game}/${board}`)
      .then((r) => r.text())
      .then((text) => {
        setMoves(recordMoves(text).filter((m) => m.text.toLowerCase() !== 'pass' || m.seat === ''));
        setResult(recordTag(text, 'Result') ?? '');
      });
    conn.send(`/table ${game} ${board}`);
  }, [game, board]);

  useEffect(() => {
    conn.request(`show ${board}#${ply}`, 'board')
      .then((e) => setPosition(String(e.position)))
      .catch(() => undefined);
  }, [ply, board]);

  const go = (n: number) => setPly(Math.max(0, Math.min(moves.length, n)));
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'ArrowRight') go(ply + 1);
      else if (e.key === 'ArrowLeft') go(ply - 1);
      else if (e.key === 'Home') go(0);
      else if (e.key === 'End') go(moves.length);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  return (
    <section class="replay" data-ply={ply}>
      <h2>{t('replay.title', { game: t(`game.${game}`), board })}</h2>
      {position && <Board game={game} position={position} steps={[]} prefix={[]} />}
      <div class="replay-controls">
        <button data-action="first" onClick={() => go(0)}>⏮</button>
        <button data-action="previous" onClick={() => go(ply - 1)}>◀</button>
        <span>{t('replay.ply', { ply, total: moves.length })}</span>
        <button data-action="next" onClick={() => go(ply + 1)}>▶</button>
        <button data-action="last" onClick={() => go(moves.length)}>⏭</button>
      </div>
      <MoveList moves={moves} current={ply} onSelect={go} />
      <p>{t('replay.result', { result })}</p>
      <a href={`/records/${game}/${board}`} download>{t('table.download')}</a>
    </section>
  );
}
