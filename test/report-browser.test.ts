/**
 * The run report as a person opens it: a sandbox run with faults and a holder who changed since
 * an earlier check writes --summary and --report; headless Chromium (Debian's `chromium`, driven
 * by playwright-core as the consent-page test does) opens the page from disk. The counts it
 * shows equal the summary JSON, nothing leaves the page, no console error, and a screenshot
 * is saved. CI installs Chromium with apt; elsewhere the test skips, saying why, only where it
 * is absent.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { CHROMIUM, openChromium } from './helpers/chromium.js';
import { holderNameFor, startSandbox } from '../src/sandbox/index.js';
import { ifscRegistry } from '../src/input/ifsc-registry.js';
import { toolVersion } from '../src/report/index.js';
import { readCsvObjects, runCli, tempDir } from './helpers/cli.js';

const IN_CI = process.env.CI === 'true';

/** The account whose holder changes between the two checks. */
const CHANGED = { accountNumber: '502000111222', ifsc: 'HDFC0000123' };

/** The sandbox's seed: payee names in the file are the holders it generates, so most rows match. */
const SEED = 7;
const nameOf = (account: string) => holderNameFor(account, SEED).toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());

function payees(): string {
  const rows = [
    'Beneficiary Name,Account Number,IFSC,Amount',
    'Anita Desai,502000111222,HDFC0000123,100', // checked before as ANITA DESAI; now another holder
    `${nameOf('100000000012')},100000000012,SBIN0001234,10`,
    'Closed,100000000090,HDFC0000123,10',
    'Invalid,100000000091,SBIN0001234,10',
    'Limited,100000000092,SBIN0001234,10',
    `${nameOf('100000000093')},100000000093,ICIC0001234,10`,
    `${nameOf('100000000097')},100000000097,SBIN0001234,10`,
    'Excel,1.23457E+11,SBIN0001234,10',
    `${nameOf('100000000012')},100000000012,SBIN0001234,10`, // a duplicate
  ];
  for (let i = 0; i < 30; i += 1) {
    const account = String(200000000100 + i * 11);
    // A few payees the bank knows by another name: paid at risk.
    rows.push(`${i % 10 === 3 ? 'Rohit Verma' : nameOf(account)},${account},KKBK0000958,${i}`);
  }
  return `${rows.join('\n')}\n`;
}

test(
  'the report of a sandbox run with faults and a changed holder, in headless Chromium: counts equal the summary, nothing leaves the page',
  { skip: CHROMIUM === undefined && !IN_CI ? 'Chromium is not installed (`apt-get install chromium`): the browser test needs it' : false, timeout: 180_000 },
  async (t) => {
    assert.ok(CHROMIUM, 'CI must have chromium (apt-get install chromium)');
    const dir = tempDir(t);
    fs.writeFileSync(path.join(dir, 'first.csv'), `Name,Account Number,IFSC\nAnita Desai,${CHANGED.accountNumber},${CHANGED.ifsc}\n`);
    fs.writeFileSync(path.join(dir, 'payees.csv'), payees());

    // An earlier check: the account belonged to ANITA DESAI.
    const before = await startSandbox({ accounts: [{ ...CHANGED, name: 'ANITA DESAI' }] });
    const first = await runCli(['bank', 'first.csv', '-o', 'first.out.csv', '--state', 'state.sqlite', '--base-url', before.url], { cwd: dir });
    await before.close();
    assert.equal(first.code, 0, first.stderr);

    // Tonight: the same account answers with another holder, and the service misbehaves.
    const sandbox = await startSandbox({ accounts: [{ ...CHANGED, name: 'VIKRAM SINGH RATHORE' }], faultRate: 0.15, faults: ['429', '503'], seed: SEED });
    t.after(() => sandbox.close());
    const run = await runCli(
      ['bank', 'payees.csv', '-o', 'out.csv', '--state', 'state.sqlite', '--base-url', sandbox.url, '--summary', 'summary.json', '--report', 'run.html', '--concurrency', '4'],
      { cwd: dir, env: { VAS_PRICE_PL: '1.25' } },
    );
    assert.equal(run.code, 3, `exit 3: one row deferred\n${run.stderr}`);
    assert.match(run.stderr, /report: run\.html/);
    const reportPath = path.join(dir, 'run.html');
    assert.equal(fs.statSync(reportPath).mode & 0o777, 0o600);
    const summary = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8')) as {
      rows: number; statuses: Record<string, number>; nameMatch: Record<string, number>; calls: { pl: number; pd: number };
      retries: Record<string, number>; spend: number; exitCode: number; avoided: Record<string, number>; callsAvoided: number;
    };
    const stats = sandbox.stats();
    assert.ok(Object.values(summary.retries).reduce((a, b) => a + b, 0) > 0, `the faults caused retries: ${JSON.stringify(summary.retries)}`);
    const out = readCsvObjects(path.join(dir, 'out.csv'));
    const atRisk = out.filter((r) => r.verify_status === 'VERIFIED' && (r.name_match === 'POOR_PARTIAL_MATCH' || r.name_match === 'NO_MATCH')).length;
    assert.ok(atRisk >= 1);

    const context = await openChromium(t);
    const page = context.pages()[0] ?? (await context.newPage());
    const pageUrl = pathToFileURL(reportPath).href;
    const requests: string[] = [];
    const consoleErrors: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    await page.goto(pageUrl, { waitUntil: 'load' });
    await page.setViewportSize({ width: 1000, height: 900 });

    assert.match(await page.title(), /Verification run \d+ — payees\.csv/);
    const count = async (chart: string, key: string) => Number(await page.locator(`[data-testid="${chart}"] g[data-key="${key}"]`).getAttribute('data-count'));
    for (const [status, n] of Object.entries(summary.statuses)) {
      assert.equal(await count('status-chart', status), n, `rows ${status}`);
      const shown = await page.locator(`[data-testid="status-chart"] g[data-key="${status}"] text.num`).textContent();
      assert.equal(Number((shown ?? '').split(' ')[0]!.replace(/,/g, '')), n, `the number drawn for ${status}`);
    }
    for (const [verdict, n] of Object.entries(summary.nameMatch)) assert.equal(await count('name-chart', verdict), n, `name verdict ${verdict}`);
    const kpi = async (id: string) => Number(((await page.locator(`[data-testid="kpi-${id}"] .v`).textContent()) ?? '').replace(/,/g, ''));
    assert.equal(await kpi('total'), summary.rows);
    assert.equal(await kpi('verified'), summary.statuses.VERIFIED);
    assert.equal(await kpi('at-risk'), atRisk);
    assert.equal(await kpi('changed'), 1);
    assert.equal(Number(await page.locator('[data-testid="calls-pl"]').textContent()), summary.calls.pl);
    assert.equal(await page.locator('[data-testid="spend"]').textContent(), summary.spend.toFixed(2));
    assert.equal(Number(await page.locator('[data-testid="exit-code"]').textContent()), summary.exitCode);
    assert.equal(await page.locator('[data-testid="state"]').getAttribute('data-finished'), 'false');
    const changed = await page.locator('[data-testid="changed"]').innerText();
    assert.match(changed, /ANITA DESAI/);
    assert.match(changed, /VIKRAM SINGH RATHORE/);
    assert.match(changed, /••••1222/);
    assert.match(await page.locator('[data-testid="deferred"]').innerText(), /••••0092/);
    const retryRows = await page.locator('[data-testid="retries"] tbody tr').count();
    assert.equal(retryRows, Object.keys(summary.retries).length);
    assert.match((await page.locator('[data-testid="exit-meaning"]').textContent()) ?? '', /not final: re-run with --resume/);
    // Calls avoided by reason, as the run counted them.
    for (const [reason, n] of Object.entries(summary.avoided)) assert.equal(await count('avoided-chart', reason), n, `avoided: ${reason}`);
    assert.equal(Number(await page.locator('[data-testid="avoided"]').textContent()), summary.callsAvoided);
    // Calls, retries and upstream errors over time, from the run's stats in the state, equal what the sandbox counted.
    const activity = async (key: string) => Number(await page.locator(`[data-testid="activity-${key}"]`).getAttribute('data-count'));
    const retried = Object.values(summary.retries).reduce((a, b) => a + b, 0);
    assert.equal(await activity('calls'), summary.calls.pl + summary.calls.pd);
    assert.equal(await activity('retries'), retried);
    assert.equal(stats.requests['account-verification-pl'], summary.calls.pl + retried, 'every request the sandbox saw is a call or a retry');
    assert.equal(await activity('throttled'), stats.responses['429'] ?? 0, '429s');
    const fiveHundreds = Object.entries(stats.responses).filter(([status]) => status.startsWith('5')).reduce((a, [, n]) => a + n, 0);
    assert.ok(fiveHundreds > 0);
    assert.equal(await activity('server'), fiveHundreds, '5xx answers');
    assert.equal(await page.locator('[data-testid="activity"]').count(), 1);
    assert.equal(await page.locator('[data-testid="calls-chart"]').count(), 1);
    // The registry the run checked against, and the version that ran it.
    assert.match((await page.locator('[data-testid="registry"]').textContent()) ?? '', new RegExp(`published ${ifscRegistry().published}`));
    assert.equal(await page.locator('[data-testid="tool-version"]').textContent(), `vas-verify ${toolVersion()}`);
    assert.ok(!(await page.content()).includes(CHANGED.accountNumber), 'account numbers are masked');

    // Readable on a phone: nothing wider than the screen but the tables' own scroll boxes.
    await page.setViewportSize({ width: 390, height: 844 });
    // A string, so the test's TypeScript needs no DOM types.
    const overflow = (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
    assert.ok(overflow <= 1, `no sideways scrolling on a phone (${overflow}px)`);
    await page.setViewportSize({ width: 1000, height: 900 });

    const shot = path.join(process.env.VAS_REPORT_SCREENSHOT_DIR ?? dir, 'report-browser.png');
    await page.screenshot({ path: shot, fullPage: true });
    assert.ok(fs.statSync(shot).size > 10_000);
    t.diagnostic(`screenshot: ${shot}`);

    assert.deepEqual(requests, [pageUrl], 'the page loads nothing but itself');
    assert.deepEqual(consoleErrors, []);

    // Rebuilt later from the state alone.
    const rebuilt = await runCli(['report', '--state', 'state.sqlite', '-o', 'again.html'], { cwd: dir });
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    assert.equal(rebuilt.stdout.trim(), 'again.html');
    const again = fs.readFileSync(path.join(dir, 'again.html'), 'utf8');
    assert.equal(fs.statSync(path.join(dir, 'again.html')).mode & 0o777, 0o600);
    // The same figures as the page the run wrote: the same page, but for when it was generated.
    const figures = (html: string) => [...html.matchAll(/data-(?:key|testid)="([^"]+)"(?: data-count="(\d+)")?/g)].map((m) => `${m[1]}=${m[2] ?? ''}`);
    const written = fs.readFileSync(reportPath, 'utf8');
    assert.ok(figures(written).length > 40);
    assert.deepEqual(figures(again), figures(written));
    const undated = (html: string) => html.replace(/ · generated [^·]+ ·/, ' · generated ·');
    assert.equal(undated(again), undated(written));
    assert.match(again, /counts are rows of the file/);
    assert.match(again, /VIKRAM SINGH RATHORE/);
    const missing = await runCli(['report', '--state', 'state.sqlite', '--run', '99', '-o', 'x.html'], { cwd: dir });
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, /run 99 is not in this state file/);
  },
);
