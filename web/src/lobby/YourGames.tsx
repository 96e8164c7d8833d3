// The player's running games, their turn first (state/yourGames.ts): a link to each table,
// whose turn it is, and the other players.
import type { YourGame } from '../state/yourGames';
import { gameTitle } from './games';
import { seatName } from './listing';
import { t } from '../i18n';

export function YourGames({ games, me }: { games: YourGame[]; me: string }) {
  return (
    <div class="your-games">
      <h2>{t('yourGames.title')}</h2>
      {games.length === 0 ? <p>{t('yourGames.none')}</p> : (
        <ul>
          {games.map((g) => (
            <li data-your-game={`${g.game}/${g.board}`} data-turn={g.myTurn ? 'mine' : 'theirs'}
              class={g.myTurn ? 'my-turn' : ''}>
              <a href={`#/table/${g.game}/${g.board}`}>{`${gameTitle(g.game)} ${g.board}`}</a>
              {' — '}
              <span class="whose">{g.myTurn ? t('yourGames.yourTurn')
                : g.nextUser ? t('table.theirTurn', { user: g.nextUser }) : t('yourGames.computer')}</span>
              <span class="players">{` (${(g.seats ?? []).filter((s) => !(s.kind === 'user' && s.name === me))
                .map(seatName).join(', ')})`}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
