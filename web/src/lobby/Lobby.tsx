// The lobby: sign in (or play as a guest), see the tables, open a table against the computer or
// friends, join or watch one.
import { useEffect, useState } from 'preact/hooks';
import type { Session } from '../state/session';
import { useSession } from '../state/session';
import { listText, t } from '../i18n';
import { hasBoard } from '../boards';
import { listingLinks, seatName } from './listing';
import type { TableListing } from './listing';
import { botChoices, botText, changedOptions, gameTitle, optionsError, seatCount, useGames } from './games';
import type { OptionValues } from './games';
import { GameOptions } from './GameOptions';
import { CLOCKS, NewTable } from './NewTable';
import { YourGames } from './YourGames';

const ORDER = ['setup', 'playing', 'over', 'declined']; // open tables first

interface Opponent {
  kind: string; // user, or cpu:LEVEL
  name: string;
}

export function Lobby({ session }: { session: Session }) {
  const state = useSession(session);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [tables, setTables] = useState<TableListing[]>([]);
  // The games this client can draw, as /api/games describes them, and the chosen one of the
  // challenge form ('' = the first) with its option values (name -> canonical text).
  const games = useGames().filter((g) => hasBoard(g.name));
  const [challengeChoice, setChallengeGame] = useState('');
  const [challengeValues, setChallengeValues] = useState<OptionValues>({});
  const [opponents, setOpponents] = useState<Opponent[]>([]);
  const [meFirst, setMeFirst] = useState(true);
  const [challengeClock, setChallengeClock] = useState('none');
  const [challengeRefusal, setChallengeRefusal] = useState('');

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
        <h2>{t('lobby.welcome', { games: listText(games.map((g) => gameTitle(g.name))) })}</h2>
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
        <p class="landing-rules">{t('nav.rules')}:{' '}
          {games.map((g, i) => (
            <>{i > 0 && ' · '}<a href={`#/rules/${g.name}`}>{gameTitle(g.name)}</a></>
          ))}
        </p>
      </section>
    );
  }

  const challengeInfo = games.find((g) => g.name === challengeChoice) ?? games[0];
  const challengeGame = challengeInfo?.name ?? '';
  const challengeSeats = challengeInfo ? seatCount(challengeInfo, challengeValues) : 0;
  const opponent = (i: number): Opponent => opponents[i] ?? { kind: 'user', name: '' };
  const setOpponent = (i: number, change: Partial<Opponent>) => {
    const next = Array.from({ length: Math.max(opponents.length, i + 1) }, (_, j) => opponent(j));
    next[i] = { ...next[i], ...change };
    setOpponents(next);
  };

  // `GAME challenge [-clock=...] USER1 USER2` (docs/PROTOCOL.md): a new board, already playing,
  // seated in that order; the other player hears of it by a `challenge` event.
  const challenge = async (e: Event) => {
    e.preventDefault();
    if (!challengeInfo) return;
    const others = Array.from({ length: challengeSeats - 1 }, (_, i) => opponent(i))
      .map((o) => (o.kind === 'user' ? o.name.trim() : o.kind));
    if (others.some((o) => !o)) return;
    const invalid = optionsError(challengeInfo, challengeValues);
    setChallengeRefusal(invalid);
    if (invalid) return;
    const order = meFirst ? [state.user, ...others] : [...others, state.user];
    const params = [...changedOptions(challengeInfo, challengeValues),
      ...(challengeClock === 'none' ? [] : [`clock=${challengeClock}`])].map((p) => ` -${p}`);
    try {
      const made = await session.connection.request(
        `${challengeGame} challenge${params.join('')} ${order.join(' ')}`, 'challenge');
      refresh();
      location.hash = `#/table/${challengeGame}/${Number(made.board)}`;
    } catch (err) {
      setChallengeRefusal((err as Error).message);
    }
  };

  return (
    <section class="lobby">
      <p class="signed-in">{t('lobby.signedInAs', { user: state.user })}{' · '}
        <a href="#/settings">{t('settings.title')}</a>{' · '}
        <a href="#/ratings">{t('ratings.title')}</a>{' · '}
        <button type="button" class="link" data-action="lobby-sign-out"
          onClick={() => session.connection.send('logout')}>{t('settings.signOut')}</button>
      </p>
      {state.yourGames && <YourGames games={state.yourGames} me={state.user} />}
      <NewTable session={session} games={games} />
      <form class="challenge" onSubmit={challenge}>
        <h2>{t('lobby.challenge')}</h2>
        <label>{t('lobby.game')}{' '}
          <select value={challengeGame} data-field="challenge-game" onChange={(e) => {
            setChallengeGame((e.target as HTMLSelectElement).value);
            setChallengeValues({});
          }}>
            {games.map((g) => <option value={g.name}>{gameTitle(g.name)}</option>)}
          </select>
        </label>
        {challengeInfo && <GameOptions info={challengeInfo} values={challengeValues}
          onChange={(v) => { setChallengeValues(v); setChallengeRefusal(''); }} field="challenge-" />}
        {Array.from({ length: Math.max(0, challengeSeats - 1) }, (_, i) => {
          // The first opponent's fields keep their names (challenge-kind, challenge-user); the
          // others are numbered from 2 (challenge-kind2, challenge-user2, ...).
          const suffix = i === 0 ? '' : String(i + 1);
          const o = opponent(i);
          return (
            <div class="opponent" data-opponent={i + 1}>
              <label>{challengeSeats > 2 ? t('lobby.opponentN', { n: i + 1 }) : t('lobby.opponent')}{' '}
                <select value={o.kind} data-field={`challenge-kind${suffix}`}
                  onChange={(e) => setOpponent(i, { kind: (e.target as HTMLSelectElement).value })}>
                  <option value="user">{t('lobby.aPlayer')}</option>
                  {botChoices(challengeInfo, challengeSeats).map((b) => (
                    <option value={`cpu:${b.bot}`} title={b.about}>{botText(b)}</option>
                  ))}
                </select>
              </label>
              {o.kind === 'user' && (
                <label>{t('lobby.name')}{' '}
                  <input value={o.name} data-field={`challenge-user${suffix}`} required
                    onInput={(e) => setOpponent(i, { name: (e.target as HTMLInputElement).value })} />
                </label>
              )}
            </div>
          );
        })}
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
        {challengeRefusal && <p class="error" role="alert" data-refusal>{challengeRefusal}</p>}
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
                  {`${gameTitle(tb.game)} ${tb.board}`}
                </a>{' '}
                <span class="status">{t(`status.${tb.status}`)}</span>{' — '}
                <span class="players">{(tb.seats ?? []).map(seatName).join(' · ')}</span>
                {action && <>{' '}<a class="action" data-action={action.slice(6)}
                  href={`#/table/${tb.game}/${tb.board}${action === 'lobby.sitDown' ? '/sit' : ''}`}>
                  {t(action)}</a></>}
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
