// One table: the board with click-by-click move input (legal next steps come from the server's
// `steps` command, so an illegal click is impossible), the move list, seats, chat, resign /
// draw / undo, and the result dialog.
import { useEffect, useState } from 'preact/hooks';
import type { Session } from '../state/session';
import { useSession } from '../state/session';
import { Board } from './Board';
import { MoveList } from './MoveList';
import { t } from '../i18n';

interface Props {
  session: Session;
  game: string;
  board: number;
}

interface StepState {
  prefix: string[];
  next: string[];
  complete: boolean;
  move?: string;
}

const EMPTY_STEPS: StepState = { prefix: [], next: [], complete: false };

export function TableView({ session, game, board }: Props) {
  const state = useSession(session);
  const table = session.table(game, board);
  const [steps, setSteps] = useState<StepState>(EMPTY_STEPS);
  const [chatLine, setChatLine] = useState('');
  const [dialogClosed, setDialogClosed] = useState(false);
  const conn = session.connection;
  const me = state.user;
  const mySeat = table.seats.find((s) => s.kind === 'user' && s.name === me);
  const myTurn = table.status === 'playing' && table.nextUser === me;

  useEffect(() => {
    conn.send(`/table ${game} ${board}`);
    conn.send(`/watch ${board}`);
    conn.send(`show ${board}`);
  }, [game, board]);

  // Ask for the legal first steps whenever it becomes our turn (or the position changes).
  const turnKey = myTurn ? `${table.ply}` : '';
  useEffect(() => {
    setSteps(EMPTY_STEPS);
    if (turnKey) query([]);
  }, [turnKey]);

  const query = async (prefix: string[]) => {
    try {
      const reply = await conn.request(`steps ${board} ${prefix.join(' ')}`.trim(), 'steps');
      const next = (reply.next as string[]) ?? [];
      const result: StepState = { prefix, next, complete: Boolean(reply.complete),
        move: reply.move as string | undefined };
      if (result.complete && next.length === 0 && result.move) {
        play(result.move);
        setSteps(EMPTY_STEPS);
      } else {
        setSteps(result);
      }
    } catch (err) {
      session.state.lastError = (err as Error).message;
      setSteps(EMPTY_STEPS);
      if (myTurn) query([]);
    }
  };

  const play = (move: string) => conn.send(`move ${board} ${move}#${table.ply + 1}`);
  const onStep = (step: string) => query([...steps.prefix, step]);
  const startLabel = t(`game.${game}`);

  return (
    <section class="table" data-game={game} data-board={board} data-status={table.status}>
      <h2>{`${startLabel} ${board}`}</h2>
      <div class="table-layout">
        <div class="board-area">
          {table.position ? (
            <Board game={game} position={table.position} steps={myTurn ? steps.next : []}
              prefix={steps.prefix} viewer={mySeat ? mySeat.seat - 1 : 0}
              names={table.seats.map((s) => s.name)}
              rows={/handicap=-?\d*\.5/.test(table.options) ? 20 : 19}
              onStep={myTurn ? onStep : undefined} />
          ) : (
            <p>{t('table.waiting')}</p>
          )}
          <p class="turn" aria-live="polite">
            {table.status === 'playing' &&
              (myTurn ? t('table.yourTurn') : t('table.theirTurn', { user: table.nextUser ?? '' }))}
          </p>
          {myTurn && steps.prefix.length > 0 && (
            <div class="step-controls">
              {steps.complete && steps.move && (
                <button class="primary" data-action="play" onClick={() => play(steps.move!)}>
                  {t('table.play', { move: steps.move })}
                </button>
              )}
              <button data-action="restart" onClick={() => query([])}>{t('table.restartMove')}</button>
            </div>
          )}
        </div>
        <aside>
          <ul class="seats">
            {table.seats.map((s) => (
              <li class={table.nextUser === s.name ? 'to-move' : ''}>
                {`${s.label}: ${s.name || t('table.freeSeat')}`}
                {s.kind === 'free' && table.status === 'setup' && !mySeat && (
                  <button data-action={`join${s.seat}`} onClick={() => conn.send(`/join ${s.seat}`)}>
                    {t('table.join')}
                  </button>
                )}
              </li>
            ))}
          </ul>
          {table.status === 'setup' && mySeat && (
            <button class="primary" data-action="start" onClick={() => conn.send('/start')}>
              {t('table.start')}
            </button>
          )}
          {table.status === 'playing' && mySeat && (
            <div class="game-actions">
              <button data-action="resign" onClick={() => conn.send(`resign ${board}`)}>{t('table.resign')}</button>
              <button data-action="draw" onClick={() => conn.send(`propose ${board}`)}>{t('table.offerDraw')}</button>
              <button data-action="undo" onClick={() => conn.send(`undo ${board}`)}>{t('table.undo')}</button>
            </div>
          )}
          {table.request && table.request.by !== me && mySeat && (
            <div class="request" role="alert">
              {t(`table.request.${table.request.kind}`, { user: table.request.by })}
              <button data-action="accept" onClick={() => conn.send(`accept ${board}`)}>{t('table.accept')}</button>
              <button data-action="reject" onClick={() => conn.send(`reject ${board}`)}>{t('table.reject')}</button>
            </div>
          )}
          <MoveList moves={table.moves.map((m) => ({ seat: m.seat, text: m.text }))} />
          <div class="chat">
            <ul aria-live="polite">
              {table.chat.map((c) => <li><b>{c.user}</b>: {c.message}</li>)}
            </ul>
            <form onSubmit={(e) => {
              e.preventDefault();
              if (chatLine.trim()) conn.send(`/say ${chatLine}`);
              setChatLine('');
            }}>
              <input value={chatLine} aria-label={t('table.chat')} placeholder={t('table.chat')}
                onInput={(e) => setChatLine((e.target as HTMLInputElement).value)} />
            </form>
          </div>
          <a href={`#/rules/${game}`}>{t('nav.rules')}</a>{' · '}
          <a href={`/records/${game}/${board}`} download>{t('table.download')}</a>
        </aside>
      </div>
      {table.result && !dialogClosed && (
        <div class="result-dialog" role="dialog" aria-label={t('table.result')}>
          <h3>{t('table.gameOver')}</h3>
          <p data-result={table.result.result}>{`${table.result.result} (${table.result.reason})`}</p>
          {table.statusLine && <p>{table.statusLine}</p>}
          <a href="#/">{t('table.backToLobby')}</a>{' · '}
          <a href={`#/replay/${game}/${board}`}>{t('table.replay')}</a>{' · '}
          <button data-action="close-dialog" onClick={() => setDialogClosed(true)}>
            {t('table.close')}
          </button>
        </div>
      )}
      {state.lastError && <p class="error" role="alert">{state.lastError}</p>}
    </section>
  );
}
