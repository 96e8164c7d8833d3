// The lobby's "new table" form, generated from /api/games for the chosen game (lobby/games.ts):
// its options and presets (GameOptions), the clock, the number of seats where the game has
// several, and who takes each seat — you, nobody yet (a friend joins), or a computer player from
// the game's ladder or its own players (`classic`). A value the schema refuses is refused here in
// the server's words; a refusal from the server itself (a table limit, a stale form) is shown
// under the button.
import { useState } from 'preact/hooks';
import type { Session } from '../state/session';
import { t } from '../i18n';
import type { GameInfo, OptionValues } from './games';
import { botChoices, botText, changedOptions, gameTitle, optionsError, seatCount, seatNames } from './games';
import { GameOptions } from './GameOptions';
import './lobby.css';

// The clocks offered (table options, the same for every game; docs/PROTOCOL.md `clock=`).
export const CLOCKS = ['none', 'move:30', 'fischer:300+5', 'fischer:900+10'];

// A seat's occupant as the form holds it: 'me', 'human' (free: a friend sits down later) or
// `cpu:BOT` as `/join` takes it.
export type Occupant = string;

// The occupants of `count` seats from the choices made so far: the player in the first seat and
// the computer, at the ladder's middle level, in the others, unless chosen otherwise. Only one
// seat can be the player's: choosing it for a seat frees the one held before. A player whose
// seat went away with fewer players sits in the first seat.
export function occupants(chosen: Occupant[], count: number, middleBot: string): Occupant[] {
  const list = Array.from({ length: count }, (_, s) => chosen[s] ?? (s === 0 ? 'me' : middleBot));
  if (!list.includes('me') && chosen.slice(count).includes('me')) list[0] = 'me';
  return list;
}

export function withOccupant(list: Occupant[], seat: number, occupant: Occupant): Occupant[] {
  return list.map((o, s) => (s === seat ? occupant : occupant === 'me' && o === 'me' ? 'human' : o));
}

export function NewTable({ session, games }: { session: Session; games: GameInfo[] }) {
  const [gameChoice, setGame] = useState('');
  const [values, setValues] = useState<OptionValues>({});
  const [chosen, setChosen] = useState<Occupant[]>([]);
  const [clock, setClock] = useState('none');
  const [refusal, setRefusal] = useState('');
  const [busy, setBusy] = useState(false);

  const info = games.find((g) => g.name === gameChoice) ?? games[0];
  if (!info) return null;
  const game = info.name;
  const seats = seatCount(info, values);
  const bots = botChoices(info, seats);
  const levels = bots.filter((b) => b.kind === 'level');
  const middle = `cpu:${(levels[Math.floor(levels.length / 2)] ?? bots[0]).bot}`;
  const seated = occupants(chosen, seats, middle);
  // Seat names by game seat ("Orange"): only where the table seat is the game seat, i.e. the
  // game has no option that reorders them.
  const names = info.seat_order_option ? [] : seatNames(info, seats);
  const invalid = optionsError(info, values);

  const create = async (e: Event) => {
    e.preventDefault();
    if (invalid) {
      setRefusal(invalid);
      return;
    }
    const options = [...changedOptions(info, values), clock === 'none' ? '' : `clock=${clock}`]
      .filter(Boolean).join(' ');
    setRefusal('');
    setBusy(true);
    try {
      const opened = await session.connection.request(`/open ${game} ${options}`.trim(), 'table');
      const board = Number(opened.board);
      for (let s = 0; s < seats; s++) {
        if (seated[s] === 'me') await session.connection.request(`/join ${s + 1}`, 'table');
        else if (seated[s].startsWith('cpu:')) {
          await session.connection.request(`/join ${seated[s]} ${s + 1}`, 'table');
        }
      }
      location.hash = `#/table/${game}/${board}`;
    } catch (err) {
      setRefusal((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="create" onSubmit={create} data-game={game} noValidate>
      <h2>{t('lobby.newTable')}</h2>
      <label>{t('lobby.game')}{' '}
        <select value={game} data-field="game" onChange={(e) => {
          setGame((e.target as HTMLSelectElement).value);
          setValues({});
          setChosen([]);
          setRefusal('');
        }}>
          {games.map((g) => <option value={g.name}>{gameTitle(g.name)}</option>)}
        </select>
      </label>{' '}
      <span class="summary">{info.summary}</span>
      <GameOptions info={info} values={values} field="" onChange={(v) => {
        setValues(v);
        setRefusal('');
      }} />
      <label>{t('lobby.clock')}{' '}
        <select value={clock} data-field="clock"
          onChange={(e) => setClock((e.target as HTMLSelectElement).value)}>
          {CLOCKS.map((c) => <option value={c}>{t(`lobby.clock.${c}`)}</option>)}
        </select>
      </label>
      <fieldset class="seats">
        <legend>{t('lobby.seats')}</legend>
        <ol>
          {seated.map((occupant, s) => (
            <li>
              <label>{names[s] ? t('lobby.seatNamed', { n: s + 1, name: names[s] }) : t('lobby.seatN', { n: s + 1 })}{' '}
                <select value={occupant} data-field={`seat${s + 1}`}
                  onChange={(e) => setChosen(withOccupant(seated, s, (e.target as HTMLSelectElement).value))}>
                  <option value="me">{t('lobby.you')}</option>
                  <option value="human">{t('lobby.openSeat')}</option>
                  {bots.map((b) => (
                    <option value={`cpu:${b.bot}`} title={b.about}>
                      {botText(b)}{b.about ? ` (${b.about})` : ''}
                    </option>
                  ))}
                </select>
              </label>
            </li>
          ))}
        </ol>
      </fieldset>
      <button type="submit" class="primary" data-action="create" disabled={busy}>{t('lobby.create')}</button>{' '}
      <a class="rules-link" href={`#/rules/${game}`}>{t('nav.rulesOf', { game: gameTitle(game) })}</a>
      {refusal && <p class="error" role="alert" data-refusal>{refusal}</p>}
    </form>
  );
}
