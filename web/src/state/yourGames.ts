// The player's games from the server's table listing (`tables`, docs/PROTOCOL.md: each item
// names its seats and `next_user`): those where it is their turn, then those waiting for
// someone else; and what changed since the last listing (the games that just became their
// turn, which the page announces: state/alerts.ts). Pure functions, checked by unit tests.
import type { TableListing } from '../lobby/listing';
import { tableKey } from './keys';

export interface YourGame {
  game: string;
  board: number;
  ply: number;
  myTurn: boolean;
  nextUser: string; // "" while the computer (or nobody) is to move
  seats: TableListing['seats'];
}

// The running games `me` has a seat at: their turn first, then the others, each by game and
// board.
export function yourGames(items: TableListing[], me: string): YourGame[] {
  const mine = items.filter((tb) => tb.status === 'playing' &&
    (tb.seats ?? []).some((s) => s.kind === 'user' && s.name === me));
  return mine.map((tb) => ({
    game: tb.game, board: tb.board, ply: tb.ply ?? 0, myTurn: tb.next_user === me,
    nextUser: tb.next_user ?? '', seats: tb.seats,
  })).sort((a, b) => Number(b.myTurn) - Number(a.myTurn) || a.game.localeCompare(b.game) ||
    a.board - b.board);
}

// The turns waiting for the player: "GAME/BOARD#PLY" (the ply tells a new turn from the same
// one: the other player may answer before a listing saw that it was their turn).
export function turnKeys(games: YourGame[]): Set<string> {
  return new Set(games.filter((g) => g.myTurn).map((g) => `${tableKey(g.game, g.board)}#${g.ply}`));
}

// The tables (tableKey) where a new turn of the player came between two listings of
// turnKeys (none on the first listing, which only tells what was already so), leaving out
// `shown`: the table on screen.
export function newTurns(before: Set<string> | undefined, now: Set<string>,
  shown?: string): string[] {
  if (!before) return [];
  return [...now].filter((k) => !before.has(k)).map((k) => k.split('#')[0])
    .filter((k) => k !== shown);
}

// The page title with the number of games waiting for the player: "(2) Plateau".
export function titleWith(count: number, base: string): string {
  return count > 0 ? `(${count}) ${base}` : base;
}
