// The illustrated rules: every page of every game, advanced by clicks (or keys), in English and
// in French.
import { assert, assertEqual, guest } from '../lib/ui.mjs';

const PAGES = { bohnduell: 4, phutball: 4, biloba: 6 };
const TITLES = {
  en: { bohnduell: 'Rules of BohnDuell', phutball: "Rules of Philosopher's Football", biloba: 'Rules of Biloba' },
  fr: { bohnduell: 'Règles de BohnDuell', phutball: 'Règles de Football philosophique', biloba: 'Règles de Biloba' },
};

// From an open rules view: checks each page, screenshots it, advances by a click anywhere on
// the page (or → / Enter / Space), and returns once the rules closed.
export async function stepRules(t, page, game, { keyboard = false, lang = 'en', name = game } = {}) {
  await page.waitForSelector('section.rules[data-rules-page="1"]');
  const total = PAGES[game];
  assertEqual(await page.textContent('section.rules h2'), TITLES[lang][game], 'the rules title');
  const seen = new Set();
  for (let n = 1; n <= total; n++) {
    await page.waitForSelector(`section.rules[data-rules-page="${n}"]`);
    const footer = await page.textContent('section.rules footer span');
    assertEqual(footer, lang === 'fr' ? `Page ${n} sur ${total}` : `Page ${n} of ${total}`, 'the page number');
    const heading = await page.textContent('section.rules h3');
    assert(!seen.has(heading), `page ${n} has a title of its own (${heading})`);
    seen.add(heading);
    // Every page is illustrated with the game's own board (issue 17 item 6).
    assert(await page.isVisible('section.rules .diagram svg'), `page ${n} of ${game} has a diagram`);
    await t.artifacts.page(page, `rules-${name}-${lang}-${n}`);
    if (keyboard) {
      await page.keyboard.press(['ArrowRight', 'Enter', ' '][n % 3]);
    } else {
      // Anywhere on the page: a different spot each time.
      const box = await page.locator('section.rules').boundingBox();
      await page.mouse.click(box.x + box.width * (0.2 + 0.15 * (n % 4)), box.y + box.height * 0.6);
    }
  }
  await page.waitForSelector('section.rules', { state: 'detached' });
}

export async function rules(t) {
  const { page } = await guest(t);
  for (const game of Object.keys(PAGES)) {
    await page.selectOption('[data-field=game]', game);
    await page.click(`.lobby a[href="#/rules/${game}"]`);
    // ← goes back a page.
    await page.waitForSelector('section.rules[data-rules-page="1"]');
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('section.rules[data-rules-page="2"]');
    await page.keyboard.press('ArrowLeft');
    await stepRules(t, page, game);
    await page.waitForSelector('section.lobby');
  }
  // In French: the language menu, then the rules of Biloba.
  await page.selectOption('header select', 'fr');
  await page.waitForSelector('text=Nouvelle table');
  await page.selectOption('[data-field=game]', 'biloba');
  await page.click('.lobby a[href="#/rules/biloba"]');
  await page.waitForSelector('section.rules[data-rules-page="1"]');
  assertEqual(await page.textContent('section.rules h3'), 'Le but', 'the first page in French');
  await stepRules(t, page, 'biloba', { lang: 'fr' });
  await page.selectOption('header select', 'en');
  t.log(`rules: ${Object.values(PAGES).reduce((a, b) => a + b, 0) + PAGES.biloba} pages stepped through`);
}
