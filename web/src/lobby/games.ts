// The games as the server describes them (GET /api/games, docs/PROTOCOL.md "Games"): the game
// list, the option schema the lobby and challenge forms are built from, and the seat labels of
// every seat count. Nothing here names a game: a game the server adds appears by itself (it
// needs only its board under boards/).
import { useEffect, useState } from 'preact/hooks';
import { hasText, t } from '../i18n';

export type OptionType = 'int' | 'decimal' | 'enum' | 'bool';

export interface GameOption {
  name: string;
  type: OptionType;
  default: string; // canonical text
  accepted: string; // for people: "an integer 2..4", "no|yes"
  help: string;
  min?: number; // int, decimal
  max?: number;
  step?: number; // decimal
  choices?: string[]; // enum; bool: [off, on]
}

export interface SeatLayout {
  count: number;
  labels: string[]; // by game seat: "O", "B", ...
  names: string[]; // "Orange", "Blue", ...
}

export interface BotLadderLevel {
  level: number;
  search: string;
  budget: number;
  description: string;
}

export interface GameInfo {
  name: string;
  title: string;
  summary: string;
  min_seats: number;
  max_seats: number;
  seat_count_option: string | null; // the option that sets the number of seats
  seat_order_option: string | null; // the table option that says who moves first
  seats: SeatLayout[];
  options: GameOption[];
  presets: { name: string; help: string; values: Record<string, string> }[];
  bots: { seats: number; levels: BotLadderLevel[] }[];
  builtin_players: string[];
}

// Option values as a form holds them: name -> canonical text. Missing names take their default.
export type OptionValues = Record<string, string>;

// The number of seats a game has with `values`.
export function seatCount(info: GameInfo, values: OptionValues = {}): number {
  const option = info.seat_count_option;
  if (option && values[option] !== undefined) {
    const n = Number(values[option]);
    if (Number.isInteger(n) && n >= info.min_seats && n <= info.max_seats) return n;
  }
  const fallback = option ? Number(info.options.find((o) => o.name === option)?.default) : NaN;
  return Number.isInteger(fallback) ? fallback : info.min_seats;
}

// The seat labels by game seat with `count` seats ([] for a count the game does not have).
export function seatLabels(info: GameInfo | undefined, count: number): string[] {
  return info?.seats.find((s) => s.count === count)?.labels ?? [];
}

// The seat names by game seat with `count` seats ("Orange", "Blue", ...; [] when unknown).
export function seatNames(info: GameInfo | undefined, count: number): string[] {
  return info?.seats.find((s) => s.count === count)?.names ?? [];
}

// The options that differ from their defaults, as `name=value` items in schema order: what
// `/open GAME ...` takes, and with a leading `-` what `GAME challenge` takes.
export function changedOptions(info: GameInfo, values: OptionValues): string[] {
  return info.options
    .filter((o) => values[o.name] !== undefined && values[o.name] !== o.default)
    .map((o) => `${o.name}=${values[o.name].trim()}`);
}

// The longest number range offered as a list; longer ones get a number field (supply 1..63,
// a handicap of -8.5..8.5 by halves), which a list of dozens of entries would only slow down.
const kLongestList = 12;

// The values an option may take in a select: every choice, or every number of a short range
// ([] for a number field).
export function optionValues(o: GameOption): string[] {
  if (o.choices) return o.choices;
  if ((o.type === 'int' || o.type === 'decimal') && o.min !== undefined && o.max !== undefined) {
    const step = o.step ?? 1;
    const count = Math.round((o.max - o.min) / step) + 1;
    if (count <= kLongestList) {
      return Array.from({ length: count }, (_, i) => String(Number((o.min! + i * step).toFixed(6))));
    }
  }
  return [];
}

// Whether `value` is one the server accepts for `o`, by the schema alone: an integer or a
// multiple of `step` from `min`, within min..max, or one of the choices. The server checks again
// (the form may be stale); this only spares a round trip and says what is wrong before sending.
export function optionAccepts(o: GameOption, value: string): boolean {
  if (o.choices) return o.choices.includes(value);
  const text = value.trim();
  if (o.type === 'int') {
    if (!/^[+-]?\d{1,16}$/.test(text)) return false;
  } else if (o.type === 'decimal') {
    if (!/^[+-]?(\d{1,16}(\.\d{0,16})?|\.\d{1,16})$/.test(text)) return false;
  } else {
    return false;
  }
  const n = Number(text);
  if ((o.min !== undefined && n < o.min) || (o.max !== undefined && n > o.max)) return false;
  if (o.type === 'decimal' && o.step) {
    const steps = (n - (o.min ?? 0)) / o.step;
    if (Math.abs(steps - Math.round(steps)) > 1e-9) return false;
  }
  return true;
}

// The refusal of a value, in the server's own words ("bad value '999' for option supply:
// expected an integer 1..63", the wording of `/open` and `challenge`); '' when it is accepted.
export function optionError(o: GameOption, value: string): string {
  return optionAccepts(o, value) ? '' : t('lobby.badValue', { value, option: o.name, accepted: o.accepted });
}

// The refusal of the first option of `values` that the schema does not accept ('' if none).
export function optionsError(info: GameInfo, values: OptionValues): string {
  for (const o of info.options) {
    const value = values[o.name];
    if (value !== undefined && value !== o.default) {
      const error = optionError(o, value);
      if (error) return error;
    }
  }
  return '';
}

// The values of preset `name` over the defaults: what the form holds after one click on it.
// The seat count stays as chosen (a ruleset is not a number of players).
export function presetValues(info: GameInfo, name: string, values: OptionValues): OptionValues {
  const preset = info.presets.find((p) => p.name === name);
  const next: OptionValues = { ...(preset?.values ?? {}) };
  const seats = info.seat_count_option;
  if (seats && values[seats] !== undefined) next[seats] = values[seats];
  return next;
}

// The preset whose values the form holds (every option other than the seat count at the
// preset's value or its default); '' when none does.
export function currentPreset(info: GameInfo, values: OptionValues): string {
  const valueOf = (o: GameOption) => values[o.name] ?? o.default;
  const preset = info.presets.find((p) => info.options.every(
    (o) => o.name === info.seat_count_option || valueOf(o) === (p.values[o.name] ?? o.default)));
  return preset?.name ?? '';
}

export interface BotChoice {
  bot: string; // what follows cpu: in /join and challenge
  kind: 'random' | 'level' | 'player'; // which text names it (lobby.computer...)
  about: string; // the level's search, for people ("" when unknown)
}

// The bots a seat may get with `count` seats: `random`, the levels of the game's ladder and
// the game's own players (`builtin_players` of /api/games).
export function botChoices(info: GameInfo | undefined, count: number): BotChoice[] {
  const ladder = info?.bots.find((b) => b.seats === count)?.levels ??
    [1, 2, 3, 4, 5].map((level) => ({ level, description: '' }));
  return [
    { bot: 'random', kind: 'random', about: '' },
    ...ladder.map((l): BotChoice => ({ bot: String(l.level), kind: 'level', about: l.description })),
    ...(info?.builtin_players ?? []).map((p): BotChoice => ({ bot: p, kind: 'player', about: '' })),
  ];
}

// The text of a bot in the seat lists: "Computer, random moves", "Computer, level 3",
// "Computer, classic".
export function botText(b: BotChoice): string {
  if (b.kind === 'random') return t('lobby.computerRandom');
  return t(b.kind === 'level' ? 'lobby.computer' : 'lobby.computerPlayer', { level: b.bot });
}

let loading: Promise<GameInfo[]> | undefined;
let loaded: GameInfo[] = []; // the last answer, so that views opened later start with it

// /api/games, fetched once per page (a failed fetch is retried on the next call).
export function loadGames(): Promise<GameInfo[]> {
  loading ??= fetch('/api/games')
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
    .then((list: GameInfo[]) => (loaded = list))
    .catch((err) => {
      loading = undefined;
      throw err;
    });
  return loading;
}

// The games, [] until /api/games has first answered on this page.
export function useGames(): GameInfo[] {
  const [games, setGames] = useState<GameInfo[]>(loaded);
  useEffect(() => {
    let live = true;
    loadGames().then((list) => live && setGames(list)).catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return games;
}

// The name of a game for people: its translation (game.NAME) where the client has one, else the
// title /api/games gives, else the registry name.
export function gameTitle(name: string): string {
  const key = `game.${name}`;
  return hasText(key) ? t(key) : loaded.find((g) => g.name === name)?.title ?? name;
}
