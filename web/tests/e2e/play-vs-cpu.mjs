// Drives a whole game against CPU seats in headless Chromium: node play-vs-cpu.mjs BASE_URL GAME
// (not yet part of make test: it needs the server; see issue 7).
import { chromium } from 'playwright-core';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
const base = process.argv[2];
const game = process.argv[3];
const page = await browser.newPage({ viewport: { width: 1000, height: 1100 } });
await page.goto(base);
await page.click('[data-action=guest]');
await page.waitForSelector('[data-action=create]');
await page.selectOption('[data-field=game]', game);
if (game === 'biloba') { await page.selectOption('[data-field=players]', '4'); }
for (const s of [2, 3, 4]) if (await page.$(`[data-field=seat${s}]`)) await page.selectOption(`[data-field=seat${s}]`, process.argv[4] ?? 'cpu:random');
await page.click('[data-action=create]');
await page.waitForSelector('.table');
await page.click('[data-action=start]');
const sel = { bohnduell: '[data-step]', phutball: '.phutball-board .point.clickable', biloba: '.biloba-board .square.clickable' }[game];
let clicks = 0;
for (let i = 0; i < 400; i++) { if (i % 100 == 0) console.log("iter", i, clicks);
  if (await page.$('.result-dialog')) break;
  const play = await page.$('[data-action=play]');
  if (play && Math.random() < 0.5) { await play.click(); await page.waitForTimeout(100); continue; }
  const targets = await page.$$(sel);
  if (targets.length > 0) { await targets[Math.floor(Math.random() * targets.length)].click(); clicks++; await page.waitForTimeout(60); }
  else await page.waitForTimeout(100);
}
await page.screenshot({ path: `/tmp/e2e-${game}.png` });
console.log(game, 'clicks', clicks, 'result:', await page.textContent('.result-dialog').catch(() => 'none'));
await browser.close();
