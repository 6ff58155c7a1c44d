/**
 * A review page drawn before a bank run answered its rows again (a `--resume --max-age` re-check
 * run in the morning while the page is open): the page shows last night's holder, the state now
 * holds another. Accepting from the stale page must not accept the holder nobody saw (the release
 * would pay them): the row is refused with a message to reload, nothing is recorded, and after a
 * reload the page shows the new holder and an acceptance is for that one. Real CLI, real sandbox,
 * headless Chromium (skipped, saying why, only where Chromium is absent outside CI).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { CHROMIUM, openChromium } from './helpers/chromium.js';
import { runCli, spawnCli, tempDir, waitFor } from './helpers/cli.js';
import { startSandbox } from '../src/sandbox/index.js';

const PAYEES = 'Beneficiary Name,Account Number,IFSC,Amount\nSunita Devi,300000000011,HDFC0000123,100\n';

async function bank(t: TestContext, dir: string, holder: string, extra: string[] = []): Promise<void> {
  const sandbox = await startSandbox({ accounts: [{ accountNumber: '300000000011', ifsc: 'HDFC0000123', name: holder }] });
  t.after(() => sandbox.close());
  const run = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--state', 'state.sqlite', '--base-url', sandbox.url, ...extra], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
}

async function textOf(page: Page, selector: string, expected: RegExp): Promise<string> {
  const until = Date.now() + 15_000;
  for (;;) {
    const text = (await page.locator(selector).first().textContent()) ?? '';
    if (expected.test(text)) return text;
    if (Date.now() > until) throw new Error(`${selector}: "${text}" does not match ${expected}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const reviews = (dir: string) => {
  const db = new Database(path.join(dir, 'state.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT holder, verdict, reviewer FROM reviews ORDER BY id').all();
  } finally {
    db.close();
  }
};

test(
  'a page drawn before a run answered the row again: its acceptance is refused (reload), never given to the new holder',
  { skip: CHROMIUM === undefined && process.env.CI !== 'true' ? 'Chromium is not installed (`apt-get install chromium`): the browser test needs it' : false, timeout: 180_000 },
  async (t) => {
    const dir = tempDir(t);
    fs.writeFileSync(path.join(dir, 'payees.csv'), PAYEES);
    await bank(t, dir, 'SUNITA KUMARI'); // REVIEW, NAME_CLOSE

    const spawned = spawnCli(['review', '--state', 'state.sqlite', '--reviewer', 'asha'], { cwd: dir });
    t.after(() => {
      if (spawned.child.exitCode === null) spawned.child.kill('SIGINT');
    });
    await waitFor(() => spawned.stdout().includes('\n') || spawned.child.exitCode !== null, 60_000, 'the review URL');
    const context = await openChromium(t);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(spawned.stdout().trim());
    assert.equal(await page.locator('[data-testid="row-1"] [data-testid="holder"]').textContent(), 'SUNITA KUMARI');

    // While the page is open, the morning's re-check finds another holder for the account.
    await bank(t, dir, 'MALLORY FRAUDSTER', ['--resume', '--max-age', '0s']);

    await page.locator('[data-testid="row-1"] button.accept').click();
    await textOf(page, '[data-testid="row-1"] [data-testid="msg"]', /answered again since this page was drawn.*reload the page/);
    assert.deepEqual(reviews(dir), [], 'nothing recorded from the stale page');

    await page.reload();
    assert.equal(await page.locator('[data-testid="row-1"] [data-testid="holder"]').textContent(), 'MALLORY FRAUDSTER');
    await page.locator('[data-testid="row-1"] button.reject').click();
    await textOf(page, '[data-testid="row-1"] [data-testid="standing"]', /^HOLD · REVIEW_REJECTED · rejected by asha$/);
    assert.deepEqual(reviews(dir), [{ holder: 'MALLORY FRAUDSTER', verdict: 'REJECTED', reviewer: 'asha' }]);

    await page.locator('[data-testid="done"]').click();
    await textOf(page, '[data-testid="finished"]', /Review finished/);
    assert.equal((await spawned.result).code, 0);
  },
);
