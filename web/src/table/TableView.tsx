// One table: the board with click-by-click (or keyboard) move input — the legal next steps come
// from the server's `steps` command, so an illegal click is impossible — the last move marked,
// clocks, the move list, seats and spectators, chat, resign / draw / undo, and the result dialog.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Seat, Session } from '../state/session';
import { useSession } from '../state/session';
import { settings } from '../state/settings';
import { Board } from './Board';
import { Clocks } from './Clocks';
import { MoveList } from './MoveList';
import { ResultBanner, resultHeadline } from './ResultBanner';
import { endEntries, playedMoves, recordTag, seatOfPly, withPasses } from './record';
import { boardOf, boardScore, moveMarks } from '../boards';
import type { Said } from '../boards/describe';
import { describeMove, stepHint, wantsLookahead } from '../boards/describe';
import { gameTitle, seatLabels, useGames } from '../lobby/games';
import { computerName, isFree, playerName, seatLongName } from '../lobby/listing';
import { t } from '../i18n';
import { AnalysisPanel } from '../analysis/AnalysisPanel';
import { RecordExport } from '../analysis/RecordExport';
import type { LineMove } from '../analysis/analysis';

const say = (s: Said) => t(s.key, s.params);

interface Props {
  session: Session;
  game: string;
  board: number;
  sit?: boolean; // take the first free seat on arrival (the lobby's "Sit down")
}

interface StepState {
  ply: number; // the position (ply count) these steps belong to
  prefix: string[];
  next: string[];
  complete: boolean;
  move?: string;
  ahead?: string[]; // the steps after each of `next`, when the hint wants them (describe.ts)
}

const NO_STEPS: StepState = { ply: -1, prefix: [], next: [], complete: false };

// Names in game-seat order: once a game runs, the server labels each table seat with its game
// seat (who moves first may have been drawn), and boards want names by game seat. `labels` are
// the game's seat labels in game-seat order (/api/games).
function namesByGameSeat(labels: string[], seats: Seat[]): string[] {
  return labels.map((label) => {
    const seat = seats.find((s) => s.label === label);
    return !seat ? label : seat.kind === 'cpu' ? computerName(seat.name) : seat.name || label;
  });
}

// The computer a free seat gets from "Let the computer play" (the lobby's default level).
const DEFAULT_BOT = 'cpu:3';

export function TableView({ session, game, board, sit }: Props) {
  const state = useSession(session);
  const table = session.table(game, board);
  const info = useGames().find((g) => g.name === game);
  const labels = seatLabels(info, table.seats.length);
  const [steps, setSteps] = useState<StepState>(NO_STEPS);
  const [querying, setQuerying] = useState(false);
  const [sending, setSending] = useState(false);
  const [chatLine, setChatLine] = useState('');
  const [dialogClosed, setDialogClosed] = useState(false);
  const [confirming, setConfirming] = useState<'resign' | 'draw' | undefined>();
  // A position of the analysis's expected line shown instead of the game's (no input then).
  const [preview, setPreview] = useState<LineMove | undefined>();
  const fetchingRecord = useRef(false);
  const conn = session.connection;
  const me = state.user;
  const mySeat = table.seats.find((s) => s.kind === 'user' && s.name === me);
  const playing = table.status === 'playing';
  const myTurn = playing && table.nextUser === me;

  const seated = useRef(false);
  seated.current = Boolean(mySeat);
  useEffect(() => {
    session.openTable(game, board);
    // A spectator who goes elsewhere stops watching (a player keeps following their game).
    return () => session.closeTable(game, board, seated.current);
  }, [game, board]);
  // The lobby's "Sit down": the first free seat, once the table is known, then the plain address.
  const sat = useRef(false);
  const free = table.seats.filter(isFree);
  useEffect(() => {
    if (!sit || sat.current || table.status !== 'setup' || mySeat || free.length === 0) return;
    sat.current = true;
    conn.send(`/join ${free[0].seat}`);
    history.replaceState(null, '', `#/table/${game}/${board}`);
  }, [sit, table.status, table.seats, mySeat]);
  // At the start the seats may be reordered (who moves first): ask for them again.
  useEffect(() => {
    if (playing) conn.send(`/table ${game} ${board}`);
  }, [playing]);

  // Someone who arrives during a game (or reloads) gets the moves so far from the record, and
  // after the end the result (a gameover event is only sent as the game ends).
  const needMoves = table.ply > 0 && table.moves.length !== table.ply;
  const needResult = table.status === 'over' && !table.result;
  useEffect(() => {
    if ((!needMoves && !needResult) || fetchingRecord.current) return;
    fetchingRecord.current = true;
    fetch(table.record ?? `/records/${game}/${board}`)
      .then((r) => (r.ok ? r.text() : Promise.reject(new Error(String(r.status)))))
      .then((text) => {
        const current = session.table(game, board);
        const moves = playedMoves(text, labels);
        if (moves.length === current.ply) {
          current.moves = moves.map((m) => ({ seat: m.seat, user: '', text: m.text }));
        }
        const result = recordTag(text, 'Result');
        if (current.status === 'over' && !current.result && result && result !== '*') {
          current.result = { result, reason: recordTag(text, 'Termination') ?? 'rules' };
        }
        session.notify();
      })
      .catch(() => undefined)
      .finally(() => {
        fetchingRecord.current = false;
      });
  }, [needMoves, needResult, table.ply]);

  // Ask for the legal first steps whenever it becomes our turn (or the position changes, or the
  // connection is back: a question in flight when it dropped got no answer).
  const turnKey = myTurn && state.connected ? `${table.ply}` : '';
  useEffect(() => {
    setSteps(NO_STEPS);
    if (turnKey) query([]);
  }, [turnKey]);

  const query = async (prefix: string[]) => {
    const ply = table.ply;
    setQuerying(true);
    try {
      const reply = await conn.request(`${game} steps ${board} ${prefix.join(' ')}`.trim(), 'steps');
      if (session.table(game, board).ply !== ply) return; // the position moved on meanwhile
      const next = (reply.next as string[]) ?? [];
      const result: StepState = { ply, prefix, next, complete: Boolean(reply.complete),
        move: reply.move as string | undefined };
      // A move with nothing left to choose goes at once, unless the player wants to confirm
      // each move (settings: a tap on a phone is easily one too many).
      if (result.complete && next.length === 0 && result.move && !settings().confirmMoves) {
        setSteps(NO_STEPS);
        play(result.move);
      } else {
        setSteps(result);
        if (table.position && wantsLookahead(game, prefix, next, table.position)) {
          lookAhead(result);
        }
      }
    } catch (err) {
      if (session.state.connected) session.state.lastError = (err as Error).message;
      setSteps(NO_STEPS);
    } finally {
      setQuerying(false);
    }
  };

  // One more step query for each next step; their union goes into the hint (a refill's square).
  const lookAhead = async (at: StepState) => {
    try {
      const replies = await Promise.all(at.next.map((step) => conn.request(
        `${game} steps ${board} ${[...at.prefix, step].join(' ')}`, 'steps')));
      const ahead = [...new Set(replies.flatMap((r) => (r.next as string[]) ?? []))].sort();
      setSteps((s) => (s === at ? { ...s, ahead } : s));
    } catch {
      // the hint stays the general one
    }
  };

  const play = async (move: string) => {
    setSending(true);
    try {
      // Sent again after a reconnection if its answer was lost (played once either way).
      await session.play(game, board, move, table.ply + 1);
    } catch (err) {
      session.state.lastError = (err as Error).message;
      if (session.table(game, board).nextUser === me) query([]);
    } finally {
      setSending(false);
    }
  };

  const busy = querying || sending;
  const onStep = (step: string) => {
    if (!busy && myTurn && steps.ply === table.ply) query([...steps.prefix, step]);
  };
  const liveSteps = myTurn && steps.ply === table.ply && !sending ? steps : NO_STEPS;
  // Moves read from a record before the game's labels were known get them now (record.ts).
  const moves = table.moves.map((m, i) => ({ seat: m.seat || seatOfPly(labels, i + 1), text: m.text }));
  const names = namesByGameSeat(labels, table.seats);
  const score = boardScore(game, table.position);
  const { colours, scoreText } = boardOf(game) ?? {};
  const hint = table.position
    ? stepHint(game, liveSteps.prefix, liveSteps.next, table.position, liveSteps.ahead) : undefined;
  const heard = table.lastMove;
  const said = heard && heard.after === table.position
    ? describeMove(game, heard.move, heard.seat, heard.before, heard.after, names, labels) : [];
  const lastPlayed = moves.length === table.ply ? moves[moves.length - 1] : undefined;
  const lastMove = lastPlayed ? moveMarks(game, lastPlayed.text, lastPlayed.seat) : [];
  const rulesLink = `#/rules/${game}`;

  return (
    <section class="table" data-game={game} data-board={board} data-status={table.status}
      data-ply={table.ply} data-turn={myTurn ? 'mine' : playing ? 'theirs' : 'none'}
      data-busy={String(busy)}>
      <div class="table-title">
        <h2>{`${gameTitle(game)} ${board}`}</h2>
        <a class="rules-link" data-action="rules" href={rulesLink} title={t('nav.rulesOf', {
          game: gameTitle(game) })}>{t('nav.rules')}</a>
      </div>
      <div class="table-layout">
        <div class="board-area">
          {table.result && (
            <ResultBanner result={table.result.result} reason={table.result.reason} names={names}
              score={score} />
          )}
          {table.clocks && table.clocks.length > 0 && <Clocks clocks={table.clocks} />}
          {table.position ? (
            <Board game={game} position={preview?.position ?? table.position}
              steps={preview ? [] : liveSteps.next} prefix={preview ? [] : liveSteps.prefix}
              viewer={Math.max(0, labels.indexOf(mySeat?.label ?? ''))}
              lastMove={preview ? moveMarks(game, preview.move, preview.seat) : lastMove} names={names}
              options={table.options}
              onStep={mySeat && playing && !preview ? onStep : undefined} />
          ) : (
            <p>{t('table.waiting')}</p>
          )}
          {myTurn && hint && <p class="step-hint" data-hint={hint.key}>{say(hint)}</p>}
          {said.length > 0 && (
            <p class="last-said" aria-live="polite">{said.map(say).join(' ')}</p>
          )}
          {playing && <p class="legend">{t('table.legend')}</p>}
          <p class="turn" aria-live="polite">
            {playing &&
              (myTurn ? t('table.yourTurn') : t('table.theirTurn', { user: playerName(table.nextUser ?? '') }))}
            {myTurn && <span class="hint">{` ${t('board.keys')}`}</span>}
          </p>
          {table.position && (
            <AnalysisPanel session={session} game={game} board={board} ply={table.ply}
              labels={labels} viewer={mySeat?.label} preview={preview} onPreview={setPreview}
              stepLink={`#/replay/${game}/${board}`} />
          )}
          {liveSteps.prefix.length > 0 && (
            <div class="step-controls">
              {liveSteps.complete && liveSteps.move && (
                <button class="primary" data-action="play" disabled={busy}
                  onClick={() => play(liveSteps.move!)}>
                  {t('table.play', { move: liveSteps.move })}
                </button>
              )}
              <button data-action="restart" disabled={busy} onClick={() => query([])}>
                {t('table.restartMove')}
              </button>
            </div>
          )}
        </div>
        <aside>
          <ul class="seats">
            {table.seats.map((s) => (
              <li class={table.nextUser === s.name && playing ? 'to-move' : ''} data-seat={s.seat}>
                {colours?.[labels.indexOf(s.label)] && (
                  <span class="swatch" style={{ background: colours[labels.indexOf(s.label)] }} />
                )}
                <span class="seat-name">{`${s.label}: ${seatLongName(s)}`}</span>
                {score && labels.indexOf(s.label) >= 0 && scoreText && (
                  <span class="count" data-count={score[labels.indexOf(s.label)]}>
                    {` · ${t(scoreText, { n: score[labels.indexOf(s.label)] })}`}
                  </span>
                )}
                {s.kind === 'free' && table.status === 'setup' && !mySeat && (
                  <button data-action={`join${s.seat}`} onClick={() => conn.send(`/join ${s.seat}`)}>
                    {t('table.join')}
                  </button>
                )}
              </li>
            ))}
          </ul>
          <div class="spectators">
            <h3>{t('table.spectators')}</h3>
            {table.spectators.length === 0 ? <p>{t('table.noSpectators')}</p> : (
              <ul>{table.spectators.map((name) => <li data-spectator={name}>{name}</li>)}</ul>
            )}
          </div>
          {table.status === 'setup' && mySeat && (
            <div class="start">
              <button class="primary" data-action="start" disabled={free.length > 0}
                aria-describedby={free.length > 0 ? 'start-reason' : undefined}
                onClick={() => conn.send('/start')}>
                {t('table.start')}
              </button>
              {free.length > 0 && (
                <p class="start-reason" id="start-reason">
                  {t('table.startReason', { seats: free.map((s) => s.label).join(', ') })}{' '}
                  {free.map((s) => (
                    <button data-action={`cpu${s.seat}`}
                      onClick={() => conn.send(`/join ${DEFAULT_BOT} ${s.seat}`)}>
                      {t('table.seatComputer', { seat: s.label, who: computerName(DEFAULT_BOT.slice(4)) })}
                    </button>
                  ))}
                </p>
              )}
            </div>
          )}
          {playing && mySeat && (
            <div class="game-actions">
              <button data-action="resign" onClick={() => setConfirming('resign')}>{t('table.resign')}</button>
              <button data-action="draw" onClick={() => setConfirming('draw')}>{t('table.offerDraw')}</button>
              <button data-action="undo" onClick={() => conn.send(`${game} undo ${board}`)}>{t('table.undo')}</button>
              {confirming && (
                // One tap on a phone must not lose the game: resigning and offering a draw ask first.
                <div class="confirm" role="alertdialog" aria-label={t(`table.confirm.${confirming}`)}>
                  <p>{t(`table.confirm.${confirming}`)}</p>
                  <button class="primary" data-action={`confirm-${confirming}`} onClick={() => {
                    conn.send(`${game} ${confirming === 'resign' ? 'resign' : 'propose'} ${board}`);
                    setConfirming(undefined);
                  }}>{t(`table.confirm.${confirming}Yes`)}</button>{' '}
                  <button data-action="cancel" onClick={() => setConfirming(undefined)}>
                    {t('table.confirm.cancel')}</button>
                </div>
              )}
            </div>
          )}
          {table.request && table.request.by !== me && mySeat && (
            <div class="request" role="alert">
              {t(`table.request.${table.request.kind}`, { user: table.request.by })}
              <button data-action="accept" onClick={() => conn.send(`${game} accept ${board}`)}>{t('table.accept')}</button>
              <button data-action="reject" onClick={() => conn.send(`${game} reject ${board}`)}>{t('table.reject')}</button>
            </div>
          )}
          <MoveList moves={[...withPasses(moves, labels), ...endEntries(table.result, labels, t)]} />
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
                data-field="chat"
                onInput={(e) => setChatLine((e.target as HTMLInputElement).value)} />
            </form>
          </div>
          {table.status === 'over' && (
            <p><a href={`#/replay/${game}/${board}`} data-action="replay">{t('table.replay')}</a></p>
          )}
          <RecordExport url={table.record ?? `/records/${game}/${board}`} game={game} board={board} />
        </aside>
      </div>
      {table.result && !dialogClosed && (
        <div class="result-dialog" role="dialog" aria-label={t('table.result')}>
          <h3>{t('table.gameOver')}</h3>
          <p class="result" data-result={table.result.result}>
            {`${resultHeadline(table.result.result, names)}${score ? ` ${score.join('–')}` : ''} ` +
              `(${table.result.result}, ${t(`reason.${table.result.reason}`)})`}
          </p>
          {table.statusLine && <p class="status-line">{table.statusLine}</p>}
          <a href="#/" data-action="lobby">{t('table.backToLobby')}</a>{' · '}
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
