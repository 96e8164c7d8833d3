// Issue 17 item 7: analysis and record export. The guest plays Ohs at a Phutball board with the
// ball on H2 (handicap 8) against the probe; after A19 A18 H1, Eks wins in one (H2-H0).
//  - The A key analyses the table's position: the best move, the expected line and the bar (a
//    sure loss for Ohs, the viewer) are the server's own answer (`analyse`, asked by the probe);
//    a move of the line shows the position after it, exactly as the server sends it.
//  - In the replay, analysis mode follows the steps: ply 0, then a click on ply 3 in the move
//    list analyses again and the bar moves to the new answer.
//  - The record downloads with the exact bytes the server serves, and copies to the clipboard.
//  - The analysis view at 1280 and 390 px, for the user guide (guide-analysis-WIDTH.jpg); axe
//    finds nothing serious in the analysis of a table or of a replay.
import { assert, assertEqual, clickTarget, guest, inputAndWait, probe, readTable } from '../lib/ui.mjs';
import { readFileSync } from 'node:fs';
import { checkAxe } from '../lib/axe.mjs';

async function place(page, point) {
  await page.waitForSelector(`section.table[data-turn=mine][data-busy=false] .board .clickable[data-point="${point}"]`);
  await inputAndWait(page, () => clickTarget(page, point), await readTable(page));
}

// The panel's answer once it shows ply `ply`: best move, line, bar value and whose view.
async function shownAnalysis(page, ply) {
  await page.waitForSelector(`.analysis[data-state=done][data-ply="${ply}"]`);
  return page.evaluate(() => {
    const bar = document.querySelector('.analysis .eval-bar');
    return {
      best: document.querySelector('.analysis-best').dataset.best,
      line: [...document.querySelectorAll('.analysis-line button')].map((b) => b.textContent),
      bar: Number(bar.getAttribute('aria-valuenow')),
      seat: bar.dataset.seat,
      label: bar.getAttribute('aria-label'),
      fill: bar.querySelector('.eval-fill').style.width,
    };
  });
}

export async function analysis(t) {
  const a = await guest(t, { viewport: { width: 1280, height: 900 } });
  const other = await probe(t.browser, t.server.base);
  t.contexts.push({ pages: () => [], close: () => other.close() });
  const made = await other.ask(`phutball challenge -handicap=8 ${a.user} ${other.user}`);
  assertEqual(made.type, 'challenge', `the challenge (${made.message ?? ''})`);
  const board = made.board;
  const { page } = a;
  await page.goto(`${t.server.base}/#/table/phutball/${board}`);
  await place(page, 'A19');
  assertEqual((await other.ask(`phutball move ${board} A18#2`)).type, 'move', 'A18 played');
  await place(page, 'H1');
  await page.waitForSelector('section.table[data-ply="3"]');

  // The server's own answers, asked by the probe.
  const win = await other.ask(`phutball analyse ${board}#3 3`);
  assertEqual([win.type, win.best, win.bar, win.line.map((m) => m.move)],
    ['analysis', 'H2-H0', 1, ['H2-H0']], 'the server sees the win in one');
  const start = await other.ask(`phutball analyse ${board}#0 3`);
  assertEqual(start.type, 'analysis', `the start analysed (${start.message ?? ''})`);

  await page.keyboard.press('a');
  assertEqual(await shownAnalysis(page, 3), { best: 'H2-H0', line: ['X: H2-H0'], bar: -1, seat: 'O',
    label: 'Evaluation for O', fill: '0%' }, 'the forced win, seen from Ohs');
  await page.click('.analysis-line button[data-line-ply="4"]');
  await page.waitForSelector('.analysis-preview');
  assertEqual(await page.getAttribute('.board', 'data-position'), win.line[0].position,
    'the line shows the position after its move');
  assertEqual(await page.getAttribute('.board', 'data-last'), 'H2 H0', 'the line move marked');
  await checkAxe(page, 'the analysis of a table');
  // The notice of the challenge is not part of the picture.
  if (await page.$('[data-action=dismiss-challenge]')) await page.click('[data-action=dismiss-challenge]');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.waitForTimeout(400);
    await page.screenshot({ path: t.artifacts.path(`guide-analysis-${width}.jpg`), type: 'jpeg',
      quality: 70, fullPage: true, animations: 'disabled' });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.click('[data-action=end-preview]');
  const position = (await other.ask(`phutball show ${board}`)).position;
  assertEqual(await page.getAttribute('.board', 'data-position'), position, 'back to the game');

  // The replay: analysis mode follows the steps, and the bar moves.
  await page.goto(`${t.server.base}/#/replay/phutball/${board}`);
  await page.waitForSelector('section.replay[data-shown-ply="0"] .board');
  await page.click('section.replay [data-action=analyse]');
  const first = await shownAnalysis(page, 0);
  assertEqual([first.best, first.bar, first.seat], [start.best, start.bar, 'O'], 'ply 0 analysed');
  await page.click('section.replay .move-list li[data-ply="3"] button');
  const last = await shownAnalysis(page, 3);
  assertEqual([last.best, last.bar, last.seat], ['H2-H0', -1, 'O'], 'ply 3 analysed again');
  assert(first.bar !== last.bar, `the bar moved (${first.bar} to ${last.bar})`);
  await checkAxe(page, 'the analysis of a replay');
  await t.artifacts.page(page, 'analysis-replay');

  // Export: the download is the server's record, byte for byte; the copy is its text.
  const served = Buffer.from(await (await fetch(`${t.server.base}/records/phutball/${board}`)).arrayBuffer());
  const [download] = await Promise.all([page.waitForEvent('download'),
    page.click('section.replay [data-action=download-record]')]);
  assertEqual(download.suggestedFilename(), `phutball-${board}.record`, 'the file name');
  const saved = readFileSync(await download.path());
  assert(saved.equals(served), `the downloaded record is the served one:\n${saved}\n---\n${served}`);
  await a.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.server.base });
  await page.click('section.replay [data-action=copy-record]');
  await page.waitForSelector('.record-export .copy-status:text("Record copied.")');
  assertEqual(await page.evaluate(() => navigator.clipboard.readText()), served.toString('utf8'),
    'the copied record');
}
