/**
 * The review page under a hurried reviewer (the browser hunt): a key acts on the row the keyboard
 * is on, a second click after a selection's decision decides nothing, and a decision the stopped
 * server never got is said on the row itself. A real bank run against the sandbox leaves four
 * payees at REVIEW; the real CLI serves `vas-verify review`; headless Chromium (Debian's
 * `chromium`, driven by playwright-core) opens it. What the state holds is read after each.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { CHROMIUM, openChromium, textOf } from './helpers/chromium.js';
import { runCli, spawnCli, tempDir, waitFor, type Spawned } from './helpers/cli.js';
import { startSandbox } from '../src/sandbox/index.js';

/** Four payees whose names are close to the bank's: REVIEW (NAME_CLOSE), rows 1–4. */
const ACCOUNTS = [
  { accountNumber: '300000000011', ifsc: 'HDFC0000123', name: 'SUNITA KUMARI', file: 'Sunita Devi' },
  { accountNumber: '300000000022', ifsc: 'SBIN0001234', name: 'MOHAMMED IRFAN', file: 'Mohd Irfan Khan' },
  { accountNumber: '300000000033', ifsc: 'ICIC0001234', name: 'SUBRAMANIAM RAMESH', file: 'S Ramesh' },
  { accountNumber: '300000000044', ifsc: 'HDFC0000123', name: 'SUNITA KUMARI', file: 'Sunita Devi' },
];

async function bankRun(t: TestContext): Promise<string> {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'payees.csv'), `Beneficiary Name,Account Number,IFSC,Amount\n${ACCOUNTS.map((a, i) => `${a.file},${a.accountNumber},${a.ifsc},${i + 1}00`).join('\n')}\n`);
  const sandbox = await startSandbox({ accounts: ACCOUNTS.map(({ accountNumber, ifsc, name }) => ({ accountNumber, ifsc, name })) });
  t.after(() => sandbox.close());
  const run = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--state', 'state.sqlite', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  return dir;
}

async function openReview(t: TestContext, dir: string, expect = ['NAME_CLOSE', 'NAME_CLOSE', 'NAME_CLOSE', 'NAME_CLOSE']): Promise<{ page: Page; spawned: Spawned }> {
  const spawned = spawnCli(['review', '--state', 'state.sqlite', '--reviewer', 'asha'], { cwd: dir });
  t.after(() => {
    if (spawned.child.exitCode === null) spawned.child.kill('SIGINT');
  });
  await waitFor(() => spawned.stdout().includes('\n') || spawned.child.exitCode !== null, 60_000, 'the review URL');
  const context = await openChromium(t);
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(spawned.stdout().trim());
  const listed = await Promise.all((await page.locator('tr.row').all()).map((row) => row.getAttribute('data-reason')));
  assert.deepEqual(listed, expect, 'the payees to review');
  return { page, spawned };
}

/** The payee rows the state holds a person's verdict for, as "row verdict". */
function reviewed(dir: string): string[] {
  const db = new Database(path.join(dir, 'state.sqlite'), { readonly: true });
  try {
    const rows = db.prepare('SELECT row, verdict FROM reviews ORDER BY id').all() as { row: number; verdict: string }[];
    return rows.map((r) => `${r.row} ${r.verdict}`);
  } finally {
    db.close();
  }
}

const standing = (row: number) => `[data-testid="row-${row}"] [data-testid="standing"]`;
const message = (row: number) => `[data-testid="row-${row}"] [data-testid="msg"]`;
const skip = CHROMIUM === undefined && process.env.CI !== 'true' ? 'Chromium is not installed (`apt-get install chromium`): the browser test needs it' : false;

test('a key acts on the row the keyboard is on: Tab to line 4\'s Reject, then a, accepts line 4 and nothing else', { skip, timeout: 180_000 }, async (t) => {
  const dir = await bankRun(t);
  const { page } = await openReview(t, dir);
  // Every row's buttons are named for screen readers by their line.
  assert.equal(await page.locator('[data-testid="row-4"] button.reject').getAttribute('aria-label'), 'Reject line 5 (hold)');
  // The page opens on row 1; Tab moves through row 1's, 2's and 3's controls to row 4's.
  let at = '';
  for (let i = 0; i < 40 && at !== '4 reject'; i += 1) {
    await page.keyboard.press('Tab');
    at = await page.locator(':focus').evaluate((el) => `${el.closest('tr.row')?.getAttribute('data-row')} ${el.className}`);
  }
  assert.equal(at, '4 reject');
  assert.equal(await page.locator('tr.current').getAttribute('data-row'), '4', 'the row with the focus is the current one');
  assert.equal(await page.locator('#accept-selected').textContent(), 'Accept (pay): line 5', 'the toolbar says what it acts on');
  await page.keyboard.press('a');
  await textOf(page, standing(4), /^PAY · REVIEW_ACCEPTED · accepted by asha/);
  assert.match((await page.locator(standing(1)).textContent()) ?? '', /not reviewed yet/, 'row 1, highlighted when the page opened, untouched');
  assert.deepEqual(reviewed(dir).map((r) => r.split(' ')[0]), ['4']);
});

test('a double-click, or a second click, on Accept after a selection\'s decision accepts nothing more', { skip, timeout: 180_000 }, async (t) => {
  const dir = await bankRun(t);
  const { page } = await openReview(t, dir);
  // Rows 1 and 2 selected, then row 4 clicked to read it: the toolbar acts on the selection.
  await page.locator('[data-testid="row-1"] input.sel').check();
  await page.locator('[data-testid="row-2"] input.sel').check();
  await page.locator('[data-testid="row-4"] td.names').click();
  assert.equal(await page.locator('#accept-selected').textContent(), 'Accept (pay): 2 selected');
  await page.locator('#accept-selected').dblclick();
  await textOf(page, '[data-testid="status"]', /2 of 2 row\(s\) accepted/);
  // The selection is gone; a further click must not fall to row 4, which nobody accepted.
  assert.equal(await page.locator('#accept-selected').textContent(), 'Accept (pay)');
  await page.locator('#accept-selected').click();
  await textOf(page, '[data-testid="status"]', /Nothing to decide/);
  assert.match((await page.locator(standing(4)).textContent()) ?? '', /not reviewed yet/);
  assert.deepEqual(reviewed(dir).map((r) => r.split(' ')[0]).sort(), ['1', '2']);
  // Moving to row 4 again makes it the target.
  await page.locator('[data-testid="row-4"] td.names').click();
  assert.equal(await page.locator('#accept-selected').textContent(), 'Accept (pay): line 5');
});

test('the server stopped while the page is open: a decision says "not recorded" on its own row, and nothing is kept', { skip, timeout: 180_000 }, async (t) => {
  const dir = await bankRun(t);
  const { page, spawned } = await openReview(t, dir);
  spawned.child.kill('SIGINT');
  await spawned.result;
  await page.locator('[data-testid="row-3"] button.reject').click();
  await textOf(page, message(3), /^not recorded: no answer from vas-verify review/);
  assert.equal(await page.locator(message(3)).getAttribute('data-ok'), 'false');
  await textOf(page, '[data-testid="status"]', /^Not recorded: no answer from vas-verify review/);
  assert.deepEqual(reviewed(dir), []);
});

test('a 300-character name without a space, an Arabic name with an emoji, a zero-width space: the row stays within the window, its buttons on screen', { skip, timeout: 180_000 }, async (t) => {
  const dir = tempDir(t);
  const long = 'A'.repeat(300);
  // Accounts ending 90: the sandbox's closed account, HOLD (ACCOUNT_NOT_VERIFIED).
  fs.writeFileSync(path.join(dir, 'long.csv'), `Name,Account Number,IFSC\n${long},100000000090,HDFC0000123\nمحمد عبد الله 🙂 Traders,100000000190,HDFC0000123\nAsha\u200bTraders,100000000290,HDFC0000123\n`);
  const run = await runCli(['bank', 'long.csv', '-o', 'out.csv', '--state', 'state.sqlite', '--sandbox'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  const { page } = await openReview(t, dir, ['ACCOUNT_NOT_VERIFIED', 'ACCOUNT_NOT_VERIFIED', 'ACCOUNT_NOT_VERIFIED']);
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.equal(await page.locator('[data-testid="row-1"] [data-testid="name"]').textContent(), long);
  assert.equal(await page.locator('[data-testid="row-2"] [data-testid="name"] bdi').count(), 1, 'the right-to-left name is isolated');
  const width = await page.evaluate('document.documentElement.scrollWidth');
  assert.ok((width as number) <= 1280, `the page is ${String(width)} px wide in a 1280 px window`);
  const box = await page.locator('[data-testid="row-1"] button.reject').boundingBox();
  assert.ok(box && box.x + box.width <= 1280, 'the row\'s Reject button is on screen');
});
