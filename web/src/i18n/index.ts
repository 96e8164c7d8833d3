// Translations: one dictionary per language (en, fr); add a language by adding a file and a
// line in `dictionaries`. The language comes from ?lang=, then localStorage, then the browser.
// The games' own strings live with their boards (boards/strings.ts) and are merged in here.
import { en as enCommon } from './en';
import { fr as frCommon } from './fr';
import { BOARD_STRINGS } from '../boards/strings';
import { ANALYSIS_STRINGS } from '../analysis/strings';

export type Dictionary = Record<string, string>;
const en: Dictionary = { ...enCommon, ...BOARD_STRINGS.en, ...ANALYSIS_STRINGS.en };
const fr: Dictionary = { ...frCommon, ...BOARD_STRINGS.fr, ...ANALYSIS_STRINGS.fr };
const dictionaries: Record<string, Dictionary> = { en, fr };
export const LANGUAGES = Object.keys(dictionaries);

function initialLanguage(): string {
  const fromUrl = new URLSearchParams(globalThis.location?.search ?? '').get('lang');
  const stored = globalThis.localStorage?.getItem('plateau.lang');
  const browser = (globalThis.navigator?.language ?? 'en').slice(0, 2);
  for (const candidate of [fromUrl, stored, browser]) {
    if (candidate && dictionaries[candidate]) return candidate;
  }
  return 'en';
}

let current = initialLanguage();

export function language(): string {
  return current;
}

export function setLanguage(lang: string): void {
  if (!dictionaries[lang]) return;
  current = lang;
  globalThis.localStorage?.setItem('plateau.lang', lang);
}

// The text of `key` in the current language (English, then the key itself, as fallbacks), with
// {name} placeholders replaced from `params`.
export function t(key: string, params: Record<string, string | number> = {}): string {
  const text = dictionaries[current][key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}

// Whether `key` has a text in the current language or in English.
export function hasText(key: string): boolean {
  return dictionaries[current][key] !== undefined || en[key] !== undefined;
}

// "a, b and c" in the current language.
export function listText(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${t('list.and')} ${items[items.length - 1]}`;
}
