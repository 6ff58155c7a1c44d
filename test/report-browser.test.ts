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
import { parse } from 'csv-parse/sync';
import { CHROMIUM, openChromium, recordPageEvents } from './helpers/chromium.js';
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
      decisions: Record<'PAY' | 'REVIEW' | 'HOLD', number>;
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
    for (const [decision, id] of [['HOLD', 'hold'], ['REVIEW', 'review'], ['PAY', 'pay']] as const) {
      assert.equal(await kpi(id), summary.decisions[decision], decision);
      assert.equal(Number(await page.locator(`[data-testid="decisions-${decision}"]`).getAttribute('data-count')), summary.decisions[decision]);
    }
    assert.equal(Number(await page.locator('[data-testid="state"]').getAttribute('data-hold')), summary.decisions.HOLD);
    assert.equal(Number(await page.locator('[data-testid="mismatched-count"]').textContent()), atRisk, 'verified rows whose name does not match');
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

/** The registry the embedded sandbox answers from: some holders are not the payee the file names. */
const REGISTRY = [
  'accountNumber,ifsc,name,status',
  '100000000012,SBIN0001234,RAVI KUMAR,',
  '100000000023,SBIN0001234,SURESH PATEL,', // another person: HOLD
  '100000000034,SBIN0001234,=1+2 EVIL,', // a holder a spreadsheet would run: HOLD, shown as the bank sent it
  '100000000045,SBIN0001234,A DESAI,', // close, not close enough: REVIEW
  '100000000056,SBIN0001234,MOHD IRFAN KHAN,', // REVIEW
  '100000000067,SBIN0001234,,NOT_VERIFIED', // HOLD
  '100000000078,SBIN0001234,PRIYA SHARMA,',
];

const HOSTILE_NAME = '<img src=x onerror=alert(1)>';

/** A payout file with a title line above its header: data row n is the file's line n + 2. */
const PAYOUT = [
  'Payouts for 26 Nov 2026',
  'Beneficiary Name,Account Number,IFSC,Amount',
  'Ravi Kumar,100000000012,SBIN0001234,"1,000"',
  'Meena Iyer,100000000023,SBIN0001234,"2,500"',
  `"${HOSTILE_NAME}",100000000034,SBIN0001234,10`,
  'Anita Desai,100000000045,SBIN0001234,500',
  'Mohammed Irfan,100000000056,SBIN0001234,700',
  'Closed Co,100000000067,SBIN0001234,300',
  'Bad Account,12,SBIN0001234,7',
  'Priya Sharma,100000000078,SBIN0001234,50',
];

test(
  'the report leads with the decision, in headless Chromium: the banner names the held and review payees, their lists come first with the file\'s lines',
  { skip: CHROMIUM === undefined && !IN_CI ? 'Chromium is not installed (`apt-get install chromium`): the browser test needs it' : false, timeout: 180_000 },
  async (t) => {
    const dir = tempDir(t);
    fs.writeFileSync(path.join(dir, 'registry.csv'), `${REGISTRY.join('\n')}\n`);
    fs.writeFileSync(path.join(dir, 'payouts.csv'), `${PAYOUT.join('\n')}\n`);
    const run = await runCli(
      ['bank', 'payouts.csv', '--sandbox', '--sandbox-accounts', 'registry.csv', '-o', 'out.csv', '--state', 's.sqlite', '--summary', 'summary.json', '--report', 'r.html'],
      { cwd: dir },
    );
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8')) as {
      decisions: Record<string, number>; amounts: { HOLD: number; REVIEW: number } | null;
    };
    assert.deepEqual(summary.decisions, { PAY: 2, REVIEW: 2, HOLD: 4 });
    // What the output says of each row, by the file's line (the output keeps the title line above its header).
    const records = parse(fs.readFileSync(path.join(dir, 'out.csv')), { bom: true, columns: true, from_line: 2 }) as Array<Record<string, string>>;
    const out = records.map((r, i): Record<string, string> => ({ ...r, line: String(i + 3) }));
    const lines = (decision: string) => out.filter((r) => r.decision === decision).map((r) => r.line);
    assert.deepEqual(lines('HOLD'), ['4', '5', '8', '9']);
    assert.deepEqual(lines('REVIEW'), ['6', '7']);
    assert.equal(out.find((r) => r.line === '5')!.beneficiary_name, "'=1+2 EVIL", 'the output neutralised the holder for spreadsheets');

    const context = await openChromium(t);
    const page = context.pages()[0] ?? (await context.newPage());
    const events = recordPageEvents(page);
    const url = pathToFileURL(path.join(dir, 'r.html')).href;
    await page.goto(url, { waitUntil: 'load' });
    await page.setViewportSize({ width: 1000, height: 900 });

    const banner = page.locator('[data-testid="state"]');
    assert.equal(await banner.getAttribute('class'), 'banner hold', 'red while payees are held');
    assert.equal(await banner.getAttribute('data-finished'), 'true');
    const headline = summary.amounts
      ? `4 payees held, 2 to review — ₹ 2,817 held, ₹ 1,200 to review.`
      : '4 payees held, 2 to review.';
    if (summary.amounts) assert.deepEqual([summary.amounts.HOLD, summary.amounts.REVIEW], [2817, 1200]);
    assert.equal(await page.locator('[data-testid="decision"]').innerText(), headline);
    assert.doesNotMatch(await banner.innerText(), /Finished\./);

    // The held and review lists come first: above the run's facts and every chart.
    const top = async (selector: string) => (await page.locator(selector).first().boundingBox())!.y;
    const held = await top('[data-testid="held"]');
    assert.ok(held < (await top('[data-testid="review"]')));
    assert.ok((await top('[data-testid="review"]')) < (await top('[data-testid="not-verified"]')));
    for (const later of ['#run', '[data-testid="status-chart"]', '[data-testid="name-chart"]', '#spend']) assert.ok((await top('[data-testid="not-verified"]')) < (await top(later)), later);

    const column = async (table: string, n: number) => page.locator(`[data-testid="${table}"] tbody tr td:nth-child(${n})`).allInnerTexts();
    assert.deepEqual(await column('held', 1), lines('HOLD'), 'numbered by the file\'s line');
    assert.deepEqual(await column('held', 2), ['Meena Iyer', HOSTILE_NAME, 'Closed Co', 'Bad Account'], 'a hostile name is shown as text');
    assert.deepEqual(await column('held', 3), ['SURESH PATEL', '=1+2 EVIL', '—', '—'], 'the bank\'s holder as it sent it');
    assert.deepEqual(await column('review', 1), lines('REVIEW'));
    assert.deepEqual(await column('review', 3), ['A DESAI', 'MOHD IRFAN KHAN']);
    assert.match((await column('review', 5))[0]!, /NAME CLOSE/);
    assert.match((await column('review', 6))[0]!, /MODERATE PARTIAL MATCH 70/);
    if (summary.amounts) assert.deepEqual(await column('held', 7), ['₹ 2,500', '₹ 10', '₹ 300', '₹ 7']);
    assert.deepEqual(await column('not-verified', 1), ['8', '9']);
    assert.deepEqual(await column('not-verified', 2), ['Closed Co', 'Bad Account']);
    const codes = out.filter((r) => r.verify_status === 'NOT_VERIFIED' || r.verify_status === 'INVALID').map((r) => r.verify_reason_code);
    assert.equal(codes[1], 'ACCOUNT_INVALID');
    assert.match(codes[0]!, /^ACCOUNT_(NOT_VERIFIED|DORMANT|CLOSED|FROZEN)$/, 'the sandbox\'s remark for a NOT_VERIFIED account, as a code');
    assert.deepEqual(await column('not-verified', 5), codes, 'each with its verify_reason_code');

    const text = (await page.evaluate('document.body.innerText')) as string;
    assert.ok(!text.includes("'="), 'no formula-escape artefact on the page');
    assert.equal((await page.evaluate("document.querySelectorAll('img, script').length")) as number, 0);
    assert.deepEqual(events, [`request ${url}`], 'nothing runs, nothing is fetched');
    const shot = path.join(process.env.VAS_REPORT_SCREENSHOT_DIR ?? dir, 'report-decisions.png');
    await page.screenshot({ path: shot, fullPage: true });
    t.diagnostic(`screenshot: ${shot}`);
  },
);
