// Ratings per game (#/ratings/GAME): the server's Glicko-2 standings (`standings GAME`,
// docs/PROTOCOL.md), best first, with the rating deviation and the number of rated games.
import { useEffect, useState } from 'preact/hooks';
import type { Session } from '../state/session';
import { useSession } from '../state/session';
import { gameTitle, useGames } from './games';
import { hasBoard } from '../boards';
import { playerName } from './listing';
import { t } from '../i18n';

interface Row {
  player: string;
  rating: number;
  deviation: number;
  games: number;
}

export function Ratings({ session, game }: { session: Session; game?: string }) {
  const state = useSession(session);
  const games = useGames().filter((g) => hasBoard(g.name));
  const chosen = game && hasBoard(game) ? game : games[0]?.name;
  const [rows, setRows] = useState<Row[] | undefined>();
  useEffect(() => {
    if (!chosen || !state.connected || !state.user) return;
    setRows(undefined);
    session.connection.request(`standings ${chosen}`, 'list')
      .then((e) => setRows(Array.isArray(e.items) ? (e.items as Row[]) : []))
      .catch(() => setRows([]));
  }, [chosen, state.connected, state.user]);
  return (
    <section class="ratings">
      <h2>{t('ratings.title')}</h2>
      <label>{t('lobby.game')}{' '}
        <select data-field="ratings-game" value={chosen}
          onChange={(e) => { location.hash = `#/ratings/${(e.target as HTMLSelectElement).value}`; }}>
          {games.map((g) => <option value={g.name}>{gameTitle(g.name)}</option>)}
        </select>
      </label>
      {!state.user && <p>{t('ratings.signIn')}</p>}
      {rows && rows.length === 0 && <p class="empty">{t('ratings.none')}</p>}
      {rows && rows.length > 0 && (
        <table data-game={chosen}>
          <thead>
            <tr><th scope="col">#</th><th scope="col">{t('ratings.player')}</th>
              <th scope="col">{t('ratings.rating')}</th><th scope="col">{t('ratings.deviation')}</th>
              <th scope="col">{t('ratings.games')}</th></tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr data-player={r.player}>
                <td>{i + 1}</td><td>{playerName(r.player)}</td><td>{r.rating}</td>
                <td>{`±${r.deviation}`}</td><td>{r.games}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
