/**
 * The review page as reviewers use it (issue #31): a real bank run against the sandbox leaves
 * rows at REVIEW and HOLD (close names, a mismatch, a holder who changed since an earlier run, a
 * closed account, a hostile name, and enough mismatches for a second page); the real CLI serves
 * `vas-verify review`, and headless Chromium (Debian's `chromium`, driven by playwright-core)
 * opens the URL it printed. Asha accepts a row by keyboard with a note, rejects one, accepts a
 * selection of two, filters by reason and pages; under `--approvals 2` her acceptance awaits a
 * second one, she cannot give it twice, and Ravi's second process gives it. A request without
 * the token, the spent token and a POST from elsewhere are refused; hostile names are text.
 * Done ends each process with exit 0, and the reviews and audit tables hold the decisions.
 * CI installs Chromium with apt; elsewhere the test skips, saying why, only where it is absent.
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
import { AuditTrail } from '../src/state/audit.js';

const HOSTILE_NAME = '<img src=x onerror=alert(1)>';
const HOSTILE_HOLDER = `"O'Brien" <script>alert(2)</script>`;
/** Mismatched payees after the eight rows the test decides on: the list needs a second page. */
const FILLER_ROWS = 230;
const PAGE_ROWS = 200;

const ACCOUNTS = [
  { accountNumber: '300000000011', ifsc: 'HDFC0000123', name: 'SUNITA KUMARI' },
  { accountNumber: '300000000022', ifsc: 'SBIN0001234', name: 'MOHAMMED IRFAN' },
  { accountNumber: '300000000033', ifsc: 'ICIC0001234', name: 'SUBRAMANIAM RAMESH' },
  { accountNumber: '300000000044', ifsc: 'HDFC0000123', name: 'RAVI KUMAR' },
  { accountNumber: '300000000055', ifsc: 'HDFC0000123', name: HOSTILE_HOLDER },
  { accountNumber: '300000000066', ifsc: 'KKBK0000958', name: 'ANIL KUMAR GUPTA' },
];

function payeeFile(): string {
  const lines = [
    'Beneficiary Name,Account Number,IFSC,Amount',
    'Sunita Devi,300000000011,HDFC0000123,"1,250.00"', // row 1: REVIEW, close name
    'Mohd Irfan Khan,300000000022,SBIN0001234,500', // row 2: REVIEW
    'S Ramesh,300000000033,ICIC0001234,750', // row 3: REVIEW
    'Asha Traders,300000000044,HDFC0000123,900', // row 4: HOLD, the holder changed since the first run
    `"${HOSTILE_NAME}",300000000055,HDFC0000123,10`, // row 5: HOLD, hostile on both sides
    'Anil Gupta,300000000066,KKBK0000958,20', // row 6: PAY, not listed
    'Closed,100000000090,HDFC0000123,30', // row 7: HOLD, NOT_VERIFIED
    'Sunita Devi,300000000011,HDFC0000123,40', // row 8: row 1's payee again
  ];
  for (let i = 0; i < FILLER_ROWS; i += 1) lines.push(`Nobody Particular,${400000000010 + i * 100},KKBK0000958,${i + 1}`); // never a sandbox scenario (last two digits 90–97)
  return `${lines.join('\n')}\n`;
}

/** Two bank runs into one state: yesterday's (row 4's account held by ASHA TRADERS) and tonight's. */
async function nightlyRun(t: TestContext, dir: string): Promise<void> {
  fs.writeFileSync(path.join(dir, 'first.csv'), 'Name,Account Number,IFSC\nAsha Traders,300000000044,HDFC0000123\n');
  fs.writeFileSync(path.join(dir, 'payees.csv'), payeeFile());
  const yesterday = await startSandbox({ accounts: [{ accountNumber: '300000000044', ifsc: 'HDFC0000123', name: 'ASHA TRADERS' }] });
  const first = await runCli(['bank', 'first.csv', '-o', 'first.out.csv', '--state', 'state.sqlite', '--base-url', yesterday.url], { cwd: dir });
  await yesterday.close();
  assert.equal(first.code, 0, first.stderr);
  const tonight = await startSandbox({ accounts: ACCOUNTS });
  t.after(() => tonight.close());
  const run = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--state', 'state.sqlite', '--base-url', tonight.url], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
}

interface Review {
  spawned: Spawned;
  url: string;
  origin: string;
}

/** `vas-verify review` in the temp dir; its URL read from stdout. */
async function startReview(t: TestContext, dir: string, args: string[]): Promise<Review> {
  const spawned = spawnCli(['review', '--state', 'state.sqlite', ...args], { cwd: dir });
  t.after(() => {
    if (spawned.child.exitCode === null) spawned.child.kill('SIGINT');
  });
  await waitFor(() => spawned.stdout().includes('\n') || spawned.child.exitCode !== null, 60_000, 'the review URL');
  const url = spawned.stdout().trim();
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/, `one URL with a 256-bit token on stdout\n${spawned.stderr()}`);
  return { spawned, url, origin: new URL(url).origin };
}

/** An attribute of every element the selector finds, in page order. */
async function attributes(page: Page, selector: string, name: string): Promise<string[]> {
  return Promise.all((await page.locator(selector).all()).map(async (element) => (await element.getAttribute(name)) ?? ''));
}

const standing = (row: number) => `[data-testid="row-${row}"] [data-testid="standing"]`;
const message = (row: number) => `[data-testid="row-${row}"] [data-testid="msg"]`;

/** Opens the page as a reviewer does, collecting dialogs, errors and every request it makes. */
async function openPage(t: TestContext, review: Review): Promise<{ page: Page; dialogs: string[]; errors: string[]; requests: string[] }> {
  const context = await openChromium(t);
  const page = context.pages()[0] ?? (await context.newPage());
  const dialogs: string[] = [];
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => requests.push(request.url()));
  const response = await page.goto(review.url);
  assert.equal(response?.status(), 200);
  assert.equal(page.url(), `${review.origin}/`, 'sent on to a URL without the token');
  const csp = (await response!.allHeaders())['content-security-policy'] ?? '';
  assert.match(csp, /^default-src 'none'; script-src 'nonce-[^']+'; style-src 'nonce-[^']+'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'/);
  assert.doesNotMatch(csp, /unsafe/);
  assert.equal((await response!.allHeaders())['x-frame-options'], 'DENY');
  return { page, dialogs, errors, requests };
}

async function finish(page: Page, review: Review): Promise<string> {
  await page.locator('[data-testid="done"]').click();
  await textOf(page, '[data-testid="finished"]', /Review finished/);
  const result = await review.spawned.result;
  assert.equal(result.code, 0, result.stderr);
  return result.stderr;
}

test(
  'the review page in headless Chromium: accept, reject, a selection, filter, pages, two reviewers; refused without the token; hostile names as text; the state keeps it all',
  { skip: CHROMIUM === undefined && process.env.CI !== 'true' ? 'Chromium is not installed (`apt-get install chromium`): the browser test needs it' : false, timeout: 300_000 },
  async (t) => {
    assert.ok(CHROMIUM, 'CI must have chromium (apt-get install chromium)');
    const dir = tempDir(t);
    await nightlyRun(t, dir);

    await t.test('asha settles rows: keyboard accept with a note, a reject, a selection of two, the filter and the pages', async (t) => {
      const review = await startReview(t, dir, ['--reviewer', 'asha']);
      await waitFor(() => review.spawned.stderr().includes('review of run'), 10_000, 'the review line');
      assert.match(review.spawned.stderr(), new RegExp(`review of run 2 \\(payees\\.csv\\): 4 row\\(s\\) at REVIEW, ${3 + FILLER_ROWS} at HOLD; reviewer asha`));

      // Without the token, with a wrong one: refused.
      assert.equal((await fetch(`${review.origin}/`)).status, 403);
      assert.equal((await fetch(`${review.origin}/?token=${'A'.repeat(43)}`)).status, 403);
      assert.equal((await fetch(`${review.origin}/api/decide`, { method: 'POST', body: '{}' })).status, 403);

      const { page, dialogs, errors, requests } = await openPage(t, review);
      // The token opened the page once: spent, a second browser is refused.
      const spent = await fetch(review.url, { redirect: 'manual' });
      assert.equal(spent.status, 403);
      assert.match(await spent.text(), /this link was already used/);
      // A POST with the session's cookie but from another origin (a page elsewhere): refused.
      const cookie = (await page.context().cookies(review.origin)).map((c) => `${c.name}=${c.value}`).join('; ');
      const forged = await fetch(`${review.origin}/api/decide`, {
        method: 'POST', headers: { cookie, origin: 'http://evil.example', 'content-type': 'application/json' }, body: JSON.stringify({ verdict: 'ACCEPTED', rows: [4] }),
      });
      assert.equal(forged.status, 403);

      // Hostile names are text: the text shown equals the name, no element or dialog came of it.
      assert.equal(await page.locator('[data-testid="row-5"] [data-testid="name"]').textContent(), HOSTILE_NAME);
      assert.equal(await page.locator('[data-testid="row-5"] [data-testid="holder"]').textContent(), HOSTILE_HOLDER);
      assert.equal(await page.locator('table img, table script').count(), 0);

      // What a row shows: the names with the matcher's reasons, the account masked, bank and branch, history.
      const row1 = await page.locator('[data-testid="row-1"]').innerText();
      assert.match(row1, /Sunita Devi/);
      assert.match(row1, /SUNITA KUMARI/);
      assert.match(row1, /MODERATE_PARTIAL_MATCH · 60/);
      assert.match(row1, /filler or middle word/, "the matcher's reason");
      assert.match(row1, /••••0011/);
      assert.doesNotMatch(await page.content(), /300000000011/, 'no full account number on the page');
      assert.match(row1, /HDFC Bank/);
      assert.match(row1, /REVIEW\s+NAME_CLOSE/);
      const row4 = await page.locator('[data-testid="row-4"] [data-testid="history"]').innerText();
      assert.match(row4, /changed since \d{4}-\d{2}-\d{2}: beneficiary name "ASHA TRADERS" -> "RAVI KUMAR"/);
      assert.match(row4, /\d{1,2} [A-Z][a-z]{2} \d{4} VERIFIED ASHA TRADERS/, 'the earlier holder, on its IST date')
      assert.match(await page.locator('[data-testid="row-4"]').innerText(), /HOLDER_CHANGED/);
      assert.equal(await page.locator('[data-testid="row-6"]').count(), 0, 'a PAY row is not listed');
      assert.equal(await page.locator('[data-testid="row-7"] button.accept').isDisabled(), true, 'a closed account cannot be accepted');
      const db = new Database(path.join(dir, 'state.sqlite'), { readonly: true });
      const amounts = db.prepare('SELECT row, amount FROM run_rows WHERE run_id = 2 AND row <= 5 ORDER BY row').all() as { row: number; amount: string | null }[];
      db.close();
      for (const { row, amount } of amounts) assert.equal(await page.locator(`[data-testid="row-${row}"] [data-testid="amount"]`).textContent(), amount ?? '', `row ${row}'s amount as the run kept it`);

      // Keyboard: the first row is current; n writes the note, Enter returns to the list, a accepts.
      await page.keyboard.press('n');
      await page.keyboard.type("Sunita's married name, confirmed by phone");
      await page.keyboard.press('Enter');
      await page.keyboard.press('a');
      await textOf(page, standing(1), /^PAY · REVIEW_ACCEPTED · accepted by asha/);
      await textOf(page, standing(8), /^PAY · REVIEW_ACCEPTED · accepted by asha/); // the same payee's other row
      assert.match((await page.locator(standing(1)).textContent()) ?? '', /Sunita's married name/);

      // A reject by keyboard on the row clicked.
      await page.locator('[data-testid="row-4"] td.line').click();
      await page.keyboard.press('r');
      await textOf(page, standing(4), /^HOLD · REVIEW_REJECTED · rejected by asha$/);

      // A selection of two by keyboard: ↓ to row 2, x, j to row 3, x, a.
      assert.equal(await page.locator('#note').inputValue(), '', 'the note went with its decision');
      await page.locator('[data-testid="row-1"] td.line').click();
      for (const key of ['ArrowDown', 'x', 'j', 'x', 'a']) await page.keyboard.press(key);
      await textOf(page, standing(2), /^PAY · REVIEW_ACCEPTED · accepted by asha$/);
      await textOf(page, standing(3), /^PAY · REVIEW_ACCEPTED · accepted by asha$/);
      await textOf(page, '[data-testid="status"]', /2 of 2 row\(s\) accepted/);

      // Accepting a payee already accepted: refused, said on the row.
      await page.locator('[data-testid="row-2"] button.accept').click();
      await textOf(page, message(2), /already accepted by asha/);

      // The filter by reason (/ focuses it): only that reason's rows.
      await page.keyboard.press('Escape');
      await page.keyboard.press('/');
      assert.equal(await page.locator('#reason:focus').count(), 1, '/ focused the reason filter');
      await Promise.all([page.waitForURL(/reason=NAME_CLOSE/), page.selectOption('#reason', 'NAME_CLOSE')]);
      const reasons = await attributes(page, 'tr.row', 'data-reason');
      assert.deepEqual(reasons, ['NAME_CLOSE', 'NAME_CLOSE', 'NAME_CLOSE', 'NAME_CLOSE']);
      // Decisions are kept: a new page shows them.
      assert.match((await page.locator(standing(1)).textContent()) ?? '', /^PAY · REVIEW_ACCEPTED · accepted by asha/);

      // Pages: at most 200 rows each, in file order, ] and [ move between them, every row on one page.
      await page.goto(`${review.origin}/`);
      const firstPage = (await attributes(page, 'tr.row', 'data-row')).map(Number);
      assert.equal(firstPage.length, PAGE_ROWS);
      await page.locator('[data-testid="row-1"] td.line').click();
      await Promise.all([page.waitForURL(/after=/), page.keyboard.press(']')]);
      const secondPage = (await attributes(page, 'tr.row', 'data-row')).map(Number);
      const listed = [...firstPage, ...secondPage];
      assert.deepEqual(listed, [...listed].sort((a, b) => a - b));
      assert.deepEqual(listed, [1, 2, 3, 4, 5, 7, 8, ...Array.from({ length: FILLER_ROWS }, (_, i) => 9 + i)]);
      assert.equal(await page.locator('#next').count(), 0, 'the last page');
      await page.locator('tr.row').first().click();
      await Promise.all([page.waitForURL(/before=/), page.keyboard.press('[')]);
      assert.equal(await page.locator('tr.row').count(), PAGE_ROWS);

      const stderr = await finish(page, review);
      assert.match(stderr, /4 decision\(s\) recorded/);
      assert.deepEqual(dialogs, [], 'no dialog: hostile names never ran');
      assert.deepEqual(errors, [], 'no console error (a CSP violation would be one)');
      assert.deepEqual(requests.filter((u) => !u.startsWith(`${review.origin}/`)), [], 'nothing loaded from elsewhere');
    });

    await t.test('--approvals 2: asha accepts, awaits a second approval and cannot give it herself; ravi gives it', async (t) => {
      const asha = await startReview(t, dir, ['--reviewer', 'asha', '--approvals', '2']);
      const first = await openPage(t, asha);
      assert.match(await first.page.locator('header').innerText(), /2 different reviewers must accept a payee/);
      await first.page.locator('[data-testid="row-9"] button.accept').click();
      await textOf(first.page, standing(9), /^REVIEW · AWAITING_APPROVAL · accepted by asha — awaiting a second approval$/);
      await first.page.locator('[data-testid="row-9"] button.accept').click();
      await textOf(first.page, message(9), /asha already accepted this holder: a second, different reviewer must approve it/);
      // Under two approvals, asha's earlier single acceptances now await a second one too.
      assert.match((await first.page.locator(standing(2)).textContent()) ?? '', /^REVIEW · AWAITING_APPROVAL · accepted by asha — awaiting a second approval/);
      await finish(first.page, asha);

      const ravi = await startReview(t, dir, ['--reviewer', 'ravi', '--approvals', '2']);
      const second = await openPage(t, ravi);
      assert.match((await second.page.locator(standing(9)).textContent()) ?? '', /awaiting a second approval/);
      await second.page.locator('[data-testid="row-9"] button.accept').click();
      await textOf(second.page, standing(9), /^PAY · REVIEW_ACCEPTED · accepted by asha, ravi$/);
      await finish(second.page, ravi);
      assert.deepEqual([...first.dialogs, ...second.dialogs, ...first.errors, ...second.errors], []);
    });

    await t.test('the reviews and audit tables hold every decision, the audit chain whole', () => {
      const db = new Database(path.join(dir, 'state.sqlite'), { readonly: true });
      t.after(() => db.close());
      const reviews = db.prepare('SELECT account, holder, verdict, reviewer, note, run_id AS runId, row FROM reviews ORDER BY id').all();
      assert.deepEqual(reviews, [
        { account: '300000000011', holder: 'SUNITA KUMARI', verdict: 'ACCEPTED', reviewer: 'asha', note: "Sunita's married name, confirmed by phone", runId: 2, row: 1 },
        { account: '300000000044', holder: 'RAVI KUMAR', verdict: 'REJECTED', reviewer: 'asha', note: null, runId: 2, row: 4 },
        { account: '300000000022', holder: 'MOHAMMED IRFAN', verdict: 'ACCEPTED', reviewer: 'asha', note: null, runId: 2, row: 2 },
        { account: '300000000033', holder: 'SUBRAMANIAM RAMESH', verdict: 'ACCEPTED', reviewer: 'asha', note: null, runId: 2, row: 3 },
        { account: '400000000010', holder: reviewsHolder(db, '400000000010'), verdict: 'ACCEPTED', reviewer: 'asha', note: null, runId: 2, row: 9 },
        { account: '400000000010', holder: reviewsHolder(db, '400000000010'), verdict: 'ACCEPTED', reviewer: 'ravi', note: null, runId: 2, row: 9 },
      ]);
      const entries = [...new AuditTrail(db).entries()];
      assert.deepEqual(entries.map((e) => e.problem), entries.map(() => undefined), 'the chain is whole');
      const byPage = entries.filter((e) => e.entry.kind === 'review').map((e) => e.entry.entry);
      assert.deepEqual(
        byPage.map((e) => [e.row, e.verdict, e.reviewer, e.via]),
        [[1, 'ACCEPTED', 'asha', 'page'], [4, 'REJECTED', 'asha', 'page'], [2, 'ACCEPTED', 'asha', 'page'], [3, 'ACCEPTED', 'asha', 'page'], [9, 'ACCEPTED', 'asha', 'page'], [9, 'ACCEPTED', 'ravi', 'page']],
      );
      assert.equal((byPage[0]!.evidence as Record<string, unknown>).nameMatch, 'MODERATE_PARTIAL_MATCH');
      assert.equal((byPage[4]!.evidence as Record<string, unknown>).approvals, 2);
      assert.match(String((byPage[0]!.evidence as Record<string, unknown>).registry), /\d{4}-\d{2}-\d{2}$/, 'the IFSC registry the evidence came from');
      assert.match(String((byPage[0]!.evidence as Record<string, unknown>).tool), /^\d+\.\d+\.\d+/, 'the tool (and matcher) version');
    });
  },
);

/** The bank's holder of an account in its latest result (the sandbox generates the filler rows' holders). */
function reviewsHolder(db: Database.Database, account: string): string {
  return db.prepare('SELECT beneficiary_name FROM results WHERE account = ? ORDER BY id DESC LIMIT 1').pluck().get(account) as string;
}
