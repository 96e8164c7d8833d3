// The player's own settings that stay in this browser (localStorage): the chime muted or not,
// and whether a complete move waits for a "Play" click (phones: a tap too many, not a lost game).
// The mail notification setting is the server's (`notify`, settings/SettingsView.tsx); the
// language is i18n's.
export interface Settings {
  muted: boolean;
  confirmMoves: boolean;
}

const KEY = 'plateau.settings';
const DEFAULTS: Settings = { muted: false, confirmMoves: false };

function load(): Settings {
  try {
    const stored = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? '{}') as Partial<Settings>;
    return {
      muted: typeof stored.muted === 'boolean' ? stored.muted : DEFAULTS.muted,
      confirmMoves: typeof stored.confirmMoves === 'boolean' ? stored.confirmMoves
        : DEFAULTS.confirmMoves,
    };
  } catch {
    return { ...DEFAULTS }; // unreadable or refused storage: the defaults
  }
}

let current = load();

export function settings(): Settings {
  return current;
}

export function changeSettings(change: Partial<Settings>): void {
  current = { ...current, ...change };
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify(current));
  } catch {
    // not kept across reloads (private windows); this page still uses it
  }
}
