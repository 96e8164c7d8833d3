// The lobby: sign in (or play as a guest), see the tables, open a table against the computer or
// friends, join or watch one.
import { useEffect, useState } from 'preact/hooks';
import type { Session } from '../state/session';
import { useSession } from '../state/session';
import { t } from '../i18n';
import { listingLinks, seatName } from './listing';
import type { TableListing } from './listing';

const GAMES = ['bohnduell', 'phutball', 'biloba'];
const LEVELS = ['random', '1', '2', '3', '4', '5'];
const CLOCKS = ['none', 'move:30', 'fischer:300+5', 'fischer:900+10'];
const ORDER = ['setup', 'playing', 'over', 'declined']; // open tables first

function seatCount(game: string, options: string): number {
  if (game !== 'biloba') return 2;
  const m = /players=(\d)/.exec(options);
  return m ? Number(m[1]) : 2;
}

export function Lobby({ session }: { session: Session }) {
  const state = useSession(session);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [tables, setTables] = useState<TableListing[]>([]);
  const [game, setGame] = useState('bohnduell');
  const [players, setPlayers] = useState(2);
  const [seatKinds, setSeatKinds] = useState<string[]>(['human', 'cpu:3', 'cpu:3', 'cpu:3']);
  const [clock, setClock] = useState('none');
  const [challengeGame, setChallengeGame] = useState('bohnduell');
  const [opponent, setOpponent] = useState('');
  const [opponentKind, setOpponentKind] = useState('user'); // user, or cpu:LEVEL
  const [meFirst, setMeFirst] = useState(true);
  const [challengeClock, setChallengeClock] = useState('none');

  const refresh = () => {
    fetch('/api/tables')
      .then((r) => r.json())
      .then((list: TableListing[]) => setTables(Array.isArray(list) ? list : []))
      .catch(() => setTables([]));
  };
  useEffect(() => {
    refresh();
    const timer = setInterval(refresh, 5000);
    return () => clearInterval(timer);
  }, []);

  if (!state.user) {
    return (
      <section class="login" aria-label={t('lobby.signIn')}>
        <h2>{t('lobby.welcome')}</h2>
        <button class="primary" data-action="guest" onClick={() => session.connection.send('guest')}>
          {t('lobby.guest')}
        </button>
        <form onSubmit={(e) => {
          e.preventDefault();
          session.connection.send(`login ${name} ${password}`);
        }}>
          <label>{t('lobby.name')} <input value={name} autocomplete="username"
            onInput={(e) => setName((e.target as HTMLInputElement).value)} /></label>
          <label>{t('lobby.password')} <input type="password" value={password}
            autocomplete="current-password"
            onInput={(e) => setPassword((e.target as HTMLInputElement).value)} /></label>
          <button type="submit">{t('lobby.login')}</button>
          <button type="button" onClick={() => session.connection.send(`register ${name} ${password}`)}>
            {t('lobby.register')}
          </button>
        </form>
        {state.lastError && <p class="error" role="alert">{state.lastError}</p>}
      </section>
    );
  }

  const gameOptions = game === 'biloba' ? `players=${players}` : '';
  const seats = seatCount(game, gameOptions);
  const options = [gameOptions, clock === 'none' ? '' : `clock=${clock}`].filter(Boolean).join(' ');
  const create = async () => {
    try {
      const opened = await session.connection.request(`/open ${game} ${options}`.trim(), 'table');
      const board = Number(opened.board);
      for (let s = 0; s < seats; s++) {
        const kind = seatKinds[s];
        if (kind === 'human' && s === 0) await session.connection.request(`/join 1`, 'table');
        else if (kind.startsWith('cpu:')) await session.connection.request(`/join ${kind} ${s + 1}`, 'table');
      }
      location.hash = `#/table/${game}/${board}`;
    } catch (err) {
      session.state.lastError = (err as Error).message;
      session.notify();
    }
  };

  // `GAME challenge [-clock=...] USER1 USER2` (docs/PROTOCOL.md): a new board, already playing,
  // seated in that order; the other player hears of it by a `challenge` event.
  const challenge = async (e: Event) => {
    e.preventDefault();
    const other = opponentKind === 'user' ? opponent.trim() : opponentKind;
    if (!other) return;
    const order = meFirst ? [state.user, other] : [other, state.user];
    const clockOption = challengeClock === 'none' ? '' : ` -clock=${challengeClock}`;
    try {
      const made = await session.connection.request(
        `${challengeGame} challenge${clockOption} ${order.join(' ')}`, 'challenge');
      refresh();
      location.hash = `#/table/${challengeGame}/${Number(made.board)}`;
    } catch (err) {
      session.state.lastError = (err as Error).message;
      session.notify();
    }
  };

  return (
    <section class="lobby">
      <p>{t('lobby.signedInAs', { user: state.user })}</p>
      <div class="create">
        <h2>{t('lobby.newTable')}</h2>
        <label>{t('lobby.game')}{' '}
          <select value={game} data-field="game"
            onChange={(e) => setGame((e.target as HTMLSelectElement).value)}>
            {GAMES.map((g) => <option value={g}>{t(`game.${g}`)}</option>)}
          </select>
        </label>
        {game === 'biloba' && (
          <label>{t('lobby.players')}{' '}
            <select value={players} data-field="players"
              onChange={(e) => setPlayers(Number((e.target as HTMLSelectElement).value))}>
              {[2, 3, 4].map((n) => <option value={n}>{n}</option>)}
            </select>
          </label>
        )}
        <label>{t('lobby.clock')}{' '}
          <select value={clock} data-field="clock"
            onChange={(e) => setClock((e.target as HTMLSelectElement).value)}>
            {CLOCKS.map((c) => <option value={c}>{t(`lobby.clock.${c}`)}</option>)}
          </select>
        </label>
        <ol class="seats">
          {Array.from({ length: seats }, (_, s) => (
            <li>
              {s === 0 ? t('lobby.you') : (
                <select value={seatKinds[s]} data-field={`seat${s + 1}`} onChange={(e) => {
                  const next = [...seatKinds];
                  next[s] = (e.target as HTMLSelectElement).value;
                  setSeatKinds(next);
                }}>
                  <option value="human">{t('lobby.openSeat')}</option>
                  {LEVELS.map((l) => <option value={`cpu:${l}`}>{t('lobby.computer', { level: l })}</option>)}
                </select>
              )}
            </li>
          ))}
        </ol>
        <button class="primary" data-action="create" onClick={create}>{t('lobby.create')}</button>{' '}
        <a class="rules-link" href={`#/rules/${game}`}>{t('nav.rulesOf', { game: t(`game.${game}`) })}</a>
      </div>
      <form class="challenge" onSubmit={challenge}>
        <h2>{t('lobby.challenge')}</h2>
        <label>{t('lobby.game')}{' '}
          <select value={challengeGame} data-field="challenge-game"
            onChange={(e) => setChallengeGame((e.target as HTMLSelectElement).value)}>
            {GAMES.map((g) => <option value={g}>{t(`game.${g}`)}</option>)}
          </select>
        </label>
        <label>{t('lobby.opponent')}{' '}
          <select value={opponentKind} data-field="challenge-kind"
            onChange={(e) => setOpponentKind((e.target as HTMLSelectElement).value)}>
            <option value="user">{t('lobby.aPlayer')}</option>
            {LEVELS.map((l) => <option value={`cpu:${l}`}>{t('lobby.computer', { level: l })}</option>)}
          </select>
        </label>
        {opponentKind === 'user' && (
          <label>{t('lobby.name')}{' '}
            <input value={opponent} data-field="challenge-user" required
              onInput={(e) => setOpponent((e.target as HTMLInputElement).value)} />
          </label>
        )}
        <label>{t('lobby.clock')}{' '}
          <select value={challengeClock} data-field="challenge-clock"
            onChange={(e) => setChallengeClock((e.target as HTMLSelectElement).value)}>
            {CLOCKS.map((c) => <option value={c}>{t(`lobby.clock.${c}`)}</option>)}
          </select>
        </label>
        <label><input type="checkbox" checked={meFirst} data-field="challenge-first"
          onChange={(e) => setMeFirst((e.target as HTMLInputElement).checked)} />{' '}
          {t('lobby.iMoveFirst')}</label>{' '}
        <button type="submit" class="primary" data-action="challenge">{t('lobby.sendChallenge')}</button>
      </form>
      <div class="tables">
        <h2>{t('lobby.tables')}</h2>
        {tables.length === 0 && <p>{t('lobby.noTables')}</p>}
        <ul>
          {[...tables].sort((x, y) => ORDER.indexOf(x.status) - ORDER.indexOf(y.status)).map((tb) => {
            const { action, replay } = listingLinks(tb, state.user);
            return (
              <li data-table={`${tb.game}/${tb.board}`}>
                <a href={`#/table/${tb.game}/${tb.board}`}>
                  {`${t(`game.${tb.game}`)} ${tb.board}`}
                </a>{' '}
                <span class="status">{t(`status.${tb.status}`)}</span>{' — '}
                <span class="players">{(tb.seats ?? []).map(seatName).join(' · ')}</span>
                {action && <>{' '}<a class="action" href={`#/table/${tb.game}/${tb.board}`}>{t(action)}</a></>}
                {replay && (
                  <>{' '}<a class="replay" href={`#/replay/${tb.game}/${tb.board}`}>{t('table.replay')}</a></>
                )}
              </li>
            );
          })}
        </ul>
      </div>
      {state.lastError && <p class="error" role="alert">{state.lastError}</p>}
    </section>
  );
}
