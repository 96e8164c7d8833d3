// What the lobby's table list shows for one table of /api/tables: the seat names, and which
// links it offers. Pure functions, so that every kind of seat is checked by unit tests.
import { t } from '../i18n';

// A seat as /api/tables and table events give it. `kind`: "" or "free" (open), "user",
// "cpu" (`name` is the level), "legacy" (a player of an imported network game of an older server).
export interface ListedSeat {
  kind: string;
  name: string;
  label?: string;
}

export interface TableListing {
  game: string;
  board: number;
  status: string; // setup, playing, over, declined
  ply?: number;
  seats?: ListedSeat[];
  options?: string;
  next_user?: string; // the user to move while playing ("" for nobody or the computer)
}

export const isFree = (seat: ListedSeat) => seat.kind === '' || seat.kind === 'free';

// The name to show for a seat.
export function seatName(seat: ListedSeat): string {
  if (isFree(seat)) return t('table.freeSeat');
  if (seat.kind === 'cpu') return computerName(seat.name);
  if (seat.kind === 'legacy') return t('lobby.legacyPlayer', { user: seat.name });
  return seat.name;
}

// The computer by its bot (what follows cpu:): "Computer, level 3", "Computer, random moves",
// "Computer, classic" — the same words everywhere a player is named.
export function computerName(bot: string): string {
  if (bot === 'random') return t('lobby.computerRandom');
  return t(/^\d+$/.test(bot) ? 'lobby.computer' : 'lobby.computerPlayer', { level: bot });
}

// A player as the server names it in events and records ("cpu:3" is the computer).
export function playerName(user: string): string {
  return user.startsWith('cpu:') ? computerName(user.slice(4)) : user;
}

// The name to show for a seat at the table (the computer with its full title).
export function seatLongName(seat: ListedSeat): string {
  return seat.kind === 'cpu' ? computerName(seat.name) : seatName(seat);
}

// The link after a table's status: back to your own game (you, `me`, sit at it), sit down at
// an open table with a free seat, watch a game being played (or a table filling up); a finished
// one is replayed instead.
export function listingLinks(tb: TableListing, me?: string): {
  action?: 'lobby.backToGame' | 'lobby.sitDown' | 'lobby.watch'; replay: boolean } {
  const free = (tb.seats ?? []).some(isFree);
  if (tb.status === 'over') return { replay: true };
  if (tb.status === 'declined') return { replay: false };
  const mine = me !== undefined && (tb.seats ?? []).some((s) => s.kind === 'user' && s.name === me);
  if (mine) return { action: 'lobby.backToGame', replay: false };
  return { action: tb.status === 'setup' && free ? 'lobby.sitDown' : 'lobby.watch', replay: false };
}
