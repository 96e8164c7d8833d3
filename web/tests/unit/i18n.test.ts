import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en';
import { fr } from '../../src/i18n/fr';
import { BOARD_STRINGS } from '../../src/boards/strings';

describe('translations', () => {
  it('say everything in French that they say in English', () => {
    expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort());
    expect(Object.keys(BOARD_STRINGS.fr).sort()).toEqual(Object.keys(BOARD_STRINGS.en).sort());
  });

  it('keep the same placeholders', () => {
    const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [key, text] of Object.entries(en)) expect([key, names(fr[key])]).toEqual([key, names(text)]);
  });
});
