// The application shell: one connection to the server, and a hash router.
//   #/                       lobby
//   #/table/GAME/N           a table (play or watch)
//   #/replay/GAME/N          a finished game, step by step
//   #/rules/GAME             illustrated rules of GAME
import { useEffect, useMemo, useState } from 'preact/hooks';
import { RulesView } from './rules/RulesView';
import { Lobby } from './lobby/Lobby';
import { TableView } from './table/TableView';
import { ReplayView } from './table/ReplayView';
import { Connection, defaultUrl } from './net/connection';
import { Session, useSession } from './state/session';
import { LANGUAGES, language, setLanguage, t } from './i18n';
import { hasBoard } from './boards';
import { gameTitle } from './lobby/games';

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const onChange = () => setHash(location.hash);
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return hash;
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
  let body;
  if (parts[0] === 'rules' && hasBoard(game)) {
    body = <RulesView key={game} game={game} onClose={() => history.back()} />;
  } else if (parts[0] === 'table' && hasBoard(game) && board > 0 && state.user) {
    body = <TableView key={hash} session={session} game={game} board={board} />;
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
      {state.challenges.length > 0 && (
        <ul class="challenges" aria-live="polite">
          {state.challenges.map((c) => (
            <li class="notice" data-challenge={`${c.game}/${c.board}`}>
              {t('challenge.notice', { game: gameTitle(c.game), board: c.board,
                players: c.players.join(' – ') })}{' '}
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
