// Client-side model of what the server told us: who we are, the tables we know, and for each
// table the seats, the position, the moves, chat and requests. Updated only from server events
// (the server is the authority); components subscribe with useSession().
import { useEffect, useState } from 'preact/hooks';
import type { Connection, ServerEvent } from '../net/connection';
import { MoveQueue } from '../net/retry';
import { tableKey } from './keys';
import { TableSync } from './sync';
import { leftNow } from './clock';
import type { YourGame } from './yourGames';
import { yourGames } from './yourGames';
import type { TableListing } from '../lobby/listing';

export { tableKey };

export interface Seat {
  seat: number;
  label: string;
  kind: 'free' | 'user' | 'cpu' | 'legacy'; // legacy: a network player of an older server
  name: string;
}

// A game clock as the server last reported it (docs/PROTOCOL.md, `clocks`): the time left when
// the event arrived; the running one keeps counting down from `receivedAt` (performance.now()).
export interface ClockModel {
  label: string;
  user: string;
  leftMs: number;
  running: boolean;
  receivedAt: number;
}

export interface TableModel {
  game: string;
  board: number;
  status: string; // setup, playing, over, declined
  seats: Seat[];
  options: string;
  position?: string;
  ply: number;
  nextUser?: string;
  moves: { seat: string; user: string; text: string }[];
  chat: { user: string; message: string }[];
  result?: { result: string; reason: string };
  request?: { kind: string; by: string };
  statusLine?: string;
  clock?: string; // table option: none, move:SECONDS, fischer:SECONDS+INCREMENT
  clocks?: ClockModel[];
  spectators: string[];
  // Where the game record is served: an invisible table's record URL carries its key
  // (/records/GAME/N?key=KEY, sent only to those who may reach the table).
  record?: string;
  // The last move heard live with the positions around it (boards/describe.ts says what it
  // did); absent after a reload or a resync from scratch.
  lastMove?: { move: string; seat: string; before: string; after: string };
}

export interface SessionState {
  connected: boolean;
  user?: string;
  guest?: boolean;
  tables: Map<string, TableModel>;
  lastError?: string;
  listing?: ServerEvent; // the last `list` event (tables, games, standings)
  // New boards where somebody else seated us (`challenge` events), until opened or dismissed.
  challenges: ChallengeNotice[];
  // The running games we sit at, our turn first (state/yourGames.ts); undefined until the
  // first listing after the login.
  yourGames?: YourGame[];
}

export interface ChallengeNotice {
  game: string;
  board: number;
  players: string[]; // seat names in seat order (a CPU seat as cpu:LEVEL)
}

// The resume token of the last login (docs/PROTOCOL.md, "Resume tokens"), kept across reloads so
// that the page comes back as the same user, seats and tables included. Storage may be refused
// (private windows): then a reload logs out, as before.
const TOKEN_KEY = 'plateau.resumeToken';

function storedToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

function storeToken(token: string | null): void {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    // not kept: the next reload starts logged out
  }
}

export class Session {
  state: SessionState = { connected: false, tables: new Map(), challenges: [] };
  private subscribers = new Set<() => void>();
  private resumeId?: number; // the id of the `resume` sent on the current connection
  // The shown tables' event counts and their catching up after a reconnection (state/sync.ts).
  readonly sync: TableSync;
  // Moves waiting for their acknowledgement, sent again after a reconnection (net/retry.ts).
  readonly moves: MoveQueue;
  private listingTimer?: ReturnType<typeof setTimeout>;

  constructor(readonly connection: Connection) {
    const send = (line: string) => connection.send(line);
    this.sync = new TableSync(send, {
      reload: (game, board) => {
        // The moves come back from the record (TableView), the rest with the board.
        this.table(game, board).moves = [];
      },
      replayed: (game, board, count) => {
        // Replayed clocks are as old as their events: ask for the current ones.
        if (count > 0 && this.table(game, board).clocks) send(`${game} show ${board}`);
      },
    });
    this.moves = new MoveQueue(send);
    connection.listen((e) => {
      this.moves.onEvent(e);
      this.apply(e);
    });
    // Every (re)connection starts as a new, anonymous one on the server: log it in again first,
    // then catch up with the tables shown, then send again the moves that got no answer.
    connection.onOpen = (sendFirst) => {
      const token = storedToken();
      this.resumeId = token ? sendFirst(`resume ${token}`) : undefined;
      this.sync.reconnected(sendFirst);
      this.moves.retry(sendFirst, (id) => connection.isQueued(id));
    };
    // Whose turn it is in our games: asked on every move we hear of, and every few seconds for
    // the games we do not follow (a move at a table we are not shown may reach us or not).
    setInterval(() => this.refreshGames(), 5000);
  }

  // Asks the server's table listing soon (several events in a row ask once).
  refreshGames(delayMs = 0): void {
    if (this.listingTimer !== undefined) return;
    this.listingTimer = setTimeout(() => {
      this.listingTimer = undefined;
      if (this.state.connected && this.state.user) this.connection.send('tables');
    }, delayMs);
  }

  // A table comes on screen: load it and follow it (its events are counted from now on).
  openTable(game: string, board: number): void {
    this.sync.open(game, board);
  }

  // A table leaves the screen; a spectator (not `seated`) stops watching it.
  closeTable(game: string, board: number, seated: boolean): void {
    this.sync.close(game, board);
    if (seated) return;
    this.connection.send(`/table ${game} ${board}`);
    this.connection.send('/leave');
  }

  // Plays `move` (canonical notation) as ply `ply`; resolves with the acknowledgement, also if
  // it came on a later connection (net/retry.ts).
  play(game: string, board: number, move: string, ply: number): Promise<ServerEvent> {
    return this.moves.play(`${game} move ${board} ${move}#${ply}`);
  }

  subscribe(fn: () => void): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  table(game: string, board: number): TableModel {
    const key = tableKey(game, board);
    let t = this.state.tables.get(key);
    if (!t) {
      t = { game, board, status: 'setup', seats: [], options: '', ply: 0, moves: [], chat: [],
        spectators: [] };
      this.state.tables.set(key, t);
    }
    return t;
  }

  // Forgets the notice of a challenge (opened or dismissed).
  dismissChallenge(game: string, board: number): void {
    this.state.challenges = this.state.challenges.filter(
      (c) => c.game !== game || c.board !== board);
    this.notify();
  }

  // Tells the subscribers that the model changed outside an event (e.g. moves from a record).
  notify(): void {
    for (const fn of [...this.subscribers]) fn();
  }

  private apply(e: ServerEvent): void {
    const s = this.state;
    // Duplicates, events past a gap and the answers to the catching-up commands stop here.
    if (!this.sync.admit(e)) return;
    switch (e.type) {
      case 'connected':
        s.connected = true;
        break;
      case 'disconnected':
        s.connected = false;
        this.sync.disconnected();
        break;
      case 'login':
        s.user = String(e.user);
        s.guest = Boolean(e.guest);
        if (typeof e.token === 'string') storeToken(e.token);
        s.yourGames = undefined;
        this.refreshGames();
        break;
      case 'ok':
        if (e.text === 'Logged out.') {
          storeToken(null);
          s.user = undefined;
          s.guest = undefined;
          s.yourGames = undefined;
        }
        break;
      case 'error': {
        if (e.re !== undefined && e.re === this.resumeId) {
          // The token expired or was revoked: forget it and show the sign-in form.
          this.resumeId = undefined;
          storeToken(null);
          s.user = undefined;
          s.guest = undefined;
        }
        const message = String(e.message ?? '');
        s.lastError = message;
        // Errors are shown for a few seconds, then cleared unless a newer one replaced them.
        setTimeout(() => {
          if (this.state.lastError === message) {
            this.state.lastError = undefined;
            for (const fn of [...this.subscribers]) fn();
          }
        }, 6000);
        break;
      }
      case 'list':
        s.listing = e;
        if (e.what === 'tables' && s.user && Array.isArray(e.items)) {
          s.yourGames = yourGames(e.items as TableListing[], s.user);
        }
        break;
      default:
        if (typeof e.game === 'string' && typeof e.board === 'number') {
          this.applyTableEvent(this.table(e.game, e.board), e);
          if (e.type === 'challenge') this.noteChallenge(e.game, e.board, e);
          if (['move', 'start', 'gameover', 'challenge'].includes(e.type)) this.refreshGames(200);
        }
    }
    for (const fn of [...this.subscribers]) fn();
  }

  // A challenge is news to its players other than the challenger, whose own command it answers
  // (the reply carries `re`).
  private noteChallenge(game: string, board: number, e: ServerEvent): void {
    const seats = (Array.isArray(e.seats) ? e.seats : []) as Seat[];
    const me = this.state.user;
    if (e.re !== undefined || !me || !seats.some((s) => s.kind === 'user' && s.name === me)) return;
    if (this.state.challenges.some((c) => c.game === game && c.board === board)) return;
    const players = seats.map((s) => (s.kind === 'cpu' ? `cpu:${s.name}` : s.name));
    this.state.challenges = [...this.state.challenges, { game, board, players }];
  }

  private applyTableEvent(t: TableModel, e: ServerEvent): void {
    // `show BOARD#n` (a replay step) answers with a past position: not the table's state.
    if (e.type === 'board' && typeof e.status !== 'string') return;
    const before = t.position;
    if (Array.isArray(e.seats)) t.seats = e.seats as Seat[];
    if (typeof e.status === 'string') t.status = e.status;
    if (typeof e.options === 'string') t.options = e.options;
    if (typeof e.position === 'string') t.position = e.position;
    // A move, board or start event without next_user means nobody is to move (the game ended).
    if (typeof e.next_user === 'string') t.nextUser = e.next_user;
    else if (['move', 'board', 'start', 'gameover'].includes(e.type)) t.nextUser = undefined;
    if (typeof e.status_line === 'string') t.statusLine = e.status_line;
    if (typeof e.clock === 'string') t.clock = e.clock;
    if (Array.isArray(e.spectators)) t.spectators = e.spectators as string[];
    if (typeof e.record === 'string') t.record = e.record;
    // Only events about the current position carry `clocks` (not `show BOARD#n`).
    if (Array.isArray(e.clocks)) {
      const now = performance.now();
      t.clocks = (e.clocks as { label: string; user: string; left_ms: number; running: boolean }[])
        .map((c) => ({ label: c.label, user: c.user, leftMs: c.left_ms, running: c.running,
          receivedAt: now }));
    }
    switch (e.type) {
      case 'start':
        t.status = 'playing';
        t.moves = [];
        t.result = undefined;
        t.ply = 0;
        break;
      case 'move':
        t.ply = Number(e.ply);
        t.moves = t.moves.slice(0, t.ply - 1);
        t.moves.push({ seat: String(e.label), user: String(e.user), text: String(e.move) });
        t.lastMove = before && t.position ? { move: String(e.move), seat: String(e.label), before,
          after: t.position } : undefined;
        t.request = undefined;
        break;
      case 'board':
        t.lastMove = undefined;
        if (Array.isArray(e.moves)) {
          t.moves = (e.moves as { label: string; user: string; move: string }[]).map((m) => ({
            seat: m.label, user: m.user, text: m.move,
          }));
        }
        if (typeof e.ply === 'number') {
          t.ply = e.ply;
          // After an undo the board comes back shorter than the moves we heard of.
          if (t.moves.length > t.ply) t.moves = t.moves.slice(0, t.ply);
        }
        break;
      case 'gameover': {
        t.status = 'over';
        // The clocks stop where they stand now (the one that ran had its last report's time).
        const now = performance.now();
        t.clocks = t.clocks?.map((c) => ({ ...c, leftMs: leftNow(c, now), running: false,
          receivedAt: now }));
        t.result = { result: String(e.result), reason: String(e.reason) };
        break;
      }
      case 'chat':
        t.chat = [...t.chat, { user: String(e.user), message: String(e.message) }].slice(-200);
        break;
      case 'request':
        t.request = e.answer ? undefined : { kind: String(e.kind), by: String(e.by) };
        break;
    }
  }
}

// Re-renders the calling component on every session change.
export function useSession(session: Session): SessionState {
  const [, setTick] = useState(0);
  useEffect(() => {
    const unsubscribe = session.subscribe(() => setTick((n) => n + 1));
    // An event that came between the render and this subscription (the `login` answering the
    // `resume` of a reloaded page, say) notified nobody here: render once more to catch up.
    // Without it the shell kept the signed-out state and showed the lobby instead of the table
    // (e2e scenario `reload`, about one run in three).
    setTick((n) => n + 1);
    return unsubscribe;
  }, [session]);
  return session.state;
}
