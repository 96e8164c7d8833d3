// The application shell: one connection to the server, and a hash router.
//   #/                       lobby
//   #/table/GAME/N           a table (play or watch)
//   #/replay/GAME/N          a finished game, step by step
//   #/rules/GAME             illustrated rules of GAME
//   #/settings               the player's settings
//   #/ratings[/GAME]         ratings of a game
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { RulesView } from './rules/RulesView';
import { Lobby } from './lobby/Lobby';
import { TableView } from './table/TableView';
import { ReplayView } from './table/ReplayView';
import { Connection, defaultUrl } from './net/connection';
import { Session, useSession } from './state/session';
import { LANGUAGES, language, setLanguage, t } from './i18n';
import { hasBoard } from './boards';
import { gameTitle } from './lobby/games';
import { playerName } from './lobby/listing';
import { SettingsView } from './settings/SettingsView';
import { Ratings } from './lobby/Ratings';
import type { SessionState } from './state/session';
import { newTurns, titleWith, turnKeys } from './state/yourGames';
import { chime, notify } from './state/alerts';
import { tableKey } from './state/keys';

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const onChange = () => setHash(location.hash);
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return hash;
}

// The tab title counts the games waiting for the player; a game that becomes their turn while
// it is not on screen (another page, or the tab hidden) chimes and notifies.
function useTurnAlerts(state: SessionState, shown?: string) {
  const before = useRef<Set<string> | undefined>();
  const count = state.yourGames?.filter((g) => g.myTurn).length ?? 0;
  useEffect(() => {
    document.title = titleWith(count, t('app.title'));
  }, [count]);
  useEffect(() => {
    if (!state.yourGames) {
      before.current = undefined;
      return;
    }
    const now = turnKeys(state.yourGames);
    const visible = document.visibilityState === 'visible' ? shown : undefined;
    const fresh = newTurns(before.current, now, visible);
    before.current = now;
    if (fresh.length === 0) return;
    chime();
    for (const key of fresh) {
      const [game, board] = key.split('/');
      notify(t('alert.title'), t('alert.body', { game: gameTitle(game), board }),
        `#/table/${game}/${board}`, key);
    }
  }, [state.yourGames]);
  return count;
}

export function App() {
  const hash = useHash();
  const [, rerender] = useState(0);
  const session = useMemo(() => {
    const connection = new Connection(defaultUrl());
    connection.connect();
    return new Session(connection);
  }, []);
  const state = useSession(session);
  const parts = hash.replace(/^#\/?/, '').split('/');
  const game = parts[1];
  const board = Number(parts[2]);
  const turns = useTurnAlerts(state, parts[0] === 'table' ? tableKey(game, board) : undefined);
  let body;
  if (parts[0] === 'ratings') {
    body = <Ratings session={session} game={parts[1]} />;
  } else if (parts[0] === 'settings') {
    body = <SettingsView session={session} onLanguage={() => rerender((n) => n + 1)} />;
  } else if (parts[0] === 'rules' && hasBoard(game)) {
    body = <RulesView key={game} game={game} onClose={() => history.back()} />;
  } else if (parts[0] === 'table' && hasBoard(game) && board > 0 && state.user) {
    // #/table/GAME/N/sit: the lobby's "Sit down" (the first free seat is taken on arrival).
    body = <TableView key={`${game}/${board}`} session={session} game={game} board={board}
      sit={parts[3] === 'sit'} />;
  } else if (parts[0] === 'replay' && hasBoard(game) && board > 0) {
    body = <ReplayView key={hash} session={session} game={game} board={board} />;
  } else {
    body = <Lobby session={session} />;
  }
  return (
    <div class="app">
      <header>
        <h1><a href="#/">{t('app.title')}</a></h1>
        <span class={state.connected ? 'online' : 'offline'}>{state.user ?? ''}</span>
        {state.user && (
          <a class="turns" href="#/" data-turns={turns}>
            {turns > 0 ? t('yourGames.count', { n: turns }) : t('yourGames.title')}
          </a>
        )}
        <a class="settings-link" href="#/ratings" data-action="ratings">{t('ratings.title')}</a>
        <a class="settings-link" href="#/settings" data-action="settings">{t('settings.title')}</a>
        <label>
          {t('nav.language')}{' '}
          <select value={language()} onChange={(e) => {
            setLanguage((e.target as HTMLSelectElement).value);
            rerender((n) => n + 1);
          }}>
            {LANGUAGES.map((l) => <option value={l}>{l}</option>)}
          </select>
        </label>
      </header>
      {!state.connected && state.user && (
        // Dropped: the connection comes back by itself (net/connection.ts), then resumes and
        // catches up; moves not yet acknowledged are sent again (net/retry.ts).
        <p class="reconnecting" role="status">{t('nav.reconnecting')}</p>
      )}
      {state.challenges.length > 0 && (
        <ul class="challenges" aria-live="polite">
          {state.challenges.map((c) => (
            <li class="notice" data-challenge={`${c.game}/${c.board}`}>
              {t('challenge.notice', { game: gameTitle(c.game), board: c.board,
                players: c.players.map(playerName).join(' – ') })}{' '}
              <button class="primary" data-action="open-challenge" onClick={() => {
                session.dismissChallenge(c.game, c.board);
                location.hash = `#/table/${c.game}/${c.board}`;
              }}>{t('challenge.open')}</button>{' '}
              <button data-action="dismiss-challenge"
                onClick={() => session.dismissChallenge(c.game, c.board)}>
                {t('challenge.dismiss')}</button>
            </li>
          ))}
        </ul>
      )}
      <main>{body}</main>
    </div>
  );
}
