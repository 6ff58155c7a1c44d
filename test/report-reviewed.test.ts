/**
 * The report after reviews (run → review → report, the real CLI in a temp directory): `vas-verify
 * report` counts each row as it stands now — a payee accepted by review is PAY and leaves the held
 * and review lists, a rejected one is HOLD — as the release pays them, with the run's decision
 * beside each changed row and a line saying how many changed by review, by whom and when; every
 * value from the state escaped. The `--report` the run wrote before any review is unchanged.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { editCsv, readCsvObjects, runCli, tempDir } from './helpers/cli.js';

const HOLDERS = [
  'accountNumber,ifsc,name,status',
  '860000000011,SBIN0001234,ASHA RAO,VERIFIED',
  '860000000012,SBIN0001234,VIKRAM SINGH,VERIFIED',
  '860000000013,SBIN0001234,SUNITA DEVI,VERIFIED',
  '860000000014,SBIN0001234,MOHAMMED I HUSSAIN,VERIFIED',
  '860000000015,SBIN0001234,S S DESHPANDE,VERIFIED',
  '860000000016,SBIN0001234,NOBODY,NOT_VERIFIED',
].join('\n');

const PAYEES = [
  'Beneficiary Name,Account Number,IFSC,Amount',
  'Asha Rao,860000000011,SBIN0001234,1000',
  'Ravi Kumar,860000000012,SBIN0001234,2000',
  'Sunita Devi,860000000013,SBIN0001234,3000',
  'Mohammed Irfan Hussain,860000000014,SBIN0001234,4000',
  'Sagar Suresh Deshpande,860000000015,SBIN0001234,5000',
  'Neha Joshi,860000000016,SBIN0001234,6000',
].join('\n');

const REVIEWER = 'Asha <b>Rao</b>';
const NOTE = '<script>alert(1)</script> invoice checked, a/c 53062580996140';

const countOf = (html: string, testid: string) => Number(new RegExp(`data-testid="${testid}"[^>]*data-count="(\\d+)"`).exec(html)?.[1] ?? Number.NaN);
const decisionCounts = (html: string) => ({ PAY: countOf(html, 'decisions-PAY'), REVIEW: countOf(html, 'decisions-REVIEW'), HOLD: countOf(html, 'decisions-HOLD') });
const listCount = (html: string, id: string) => Number(new RegExp(`data-testid="${id}-count">(\\d+)<`).exec(html)?.[1] ?? Number.NaN);
const tableOf = (html: string, testid: string) => new RegExp(`<table data-testid="${testid}">(.*?)</table>`, 's').exec(html)?.[1] ?? '';
/** Each body row of a table: its cells' HTML. */
const rowsOf = (table: string) => [...table.matchAll(/<tr>(.*?)<\/tr>/gs)].slice(1).map((m) => [...m[1]!.matchAll(/<td>(.*?)<\/td>/gs)].map((c) => c[1]!));

test('vas-verify report after reviews counts each row as reviewed and as the release pays it; bank --report is unchanged', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'holders.csv'), `${HOLDERS}\n`);
  fs.writeFileSync(path.join(dir, 'payees.csv'), `${PAYEES}\n`);
  const run = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--state', 's.sqlite', '--sandbox', '--sandbox-accounts', 'holders.csv', '--report', 'run.html'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  const ran = Object.fromEntries(readCsvObjects(path.join(dir, 'out.csv')).map((r) => [r['Beneficiary Name'], `${r.decision} ${r.decision_reason}`]));
  assert.deepEqual(ran, {
    'Asha Rao': 'PAY NAME_MATCH', 'Ravi Kumar': 'HOLD NAME_MISMATCH', 'Sunita Devi': 'PAY NAME_MATCH',
    'Mohammed Irfan Hussain': 'REVIEW NAME_CLOSE', 'Sagar Suresh Deshpande': 'REVIEW NAME_CLOSE', 'Neha Joshi': 'HOLD ACCOUNT_NOT_VERIFIED',
  });
  const before = fs.readFileSync(path.join(dir, 'run.html'), 'utf8');
  assert.deepEqual(decisionCounts(before), { PAY: 2, REVIEW: 2, HOLD: 2 });

  // The morning: Ravi's holder accepted (HOLD → PAY), Mohammed's accepted (REVIEW → PAY), Sagar rejected (REVIEW → HOLD).
  editCsv(path.join(dir, 'out.csv'), path.join(dir, 'reviewed.csv'), { 'Ravi Kumar': ['PAY', NOTE], 'Mohammed Irfan Hussain': ['PAY', NOTE], 'Sagar Suresh Deshpande': ['HOLD', NOTE] });
  const imported = await runCli(['review', '--import', 'reviewed.csv', '--state', 's.sqlite', '--reviewer', REVIEWER], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(imported.stderr, /2 accepted, 1 rejected, 0 not recorded/);

  const report = await runCli(['report', '--state', 's.sqlite', '-o', 'after.html'], { cwd: dir });
  assert.equal(report.code, 0, report.stderr);
  const html = fs.readFileSync(path.join(dir, 'after.html'), 'utf8');

  // Counts by decision now, adding up to the payee rows; the amounts follow them.
  const now = decisionCounts(html);
  assert.deepEqual(now, { PAY: 4, REVIEW: 0, HOLD: 2 });
  assert.equal(now.PAY + now.REVIEW + now.HOLD, 6);
  assert.match(html, /data-testid="decision">2 payees held — ₹ 11,000 held\.</);
  assert.match(html, /Pay only the 4 payees marked PAY \(₹ 10,000\)/);
  assert.match(html, /data-testid="reason-REVIEW_ACCEPTED" data-count="2"/);
  assert.match(html, /data-testid="reason-REVIEW_REJECTED" data-count="1"/);
  assert.doesNotMatch(html, /data-testid="reason-NAME_CLOSE"/, 'no row stands at NAME_CLOSE now');

  // The lists needing action no longer list the reviewed rows paid now; the rejected one is held, with the run's decision beside it.
  assert.equal(listCount(html, 'review'), 0);
  assert.equal(listCount(html, 'held'), 2);
  const held = rowsOf(tableOf(html, 'held'));
  assert.deepEqual(held.map((cells) => /<bdi>([^<]*)<\/bdi>/.exec(cells[1]!)?.[1]), ['Sagar Suresh Deshpande', 'Neha Joshi']);
  assert.match(held[0]![4]!, /REVIEW REJECTED/);
  assert.match(held[0]![4]!, /data-testid="ran-as" data-decision="REVIEW">run: REVIEW NAME_CLOSE → <bdi>rejected by Asha &lt;b&gt;Rao&lt;\/b&gt;<\/bdi>/);
  assert.doesNotMatch(held[1]![4]!, /ran-as/, 'a row nobody reviewed stands as the run decided it');
  assert.doesNotMatch(tableOf(html, 'held'), /Ravi Kumar/);

  // How many changed by review, by whom and when; each with the run's decision and the one now.
  assert.equal(countOf(html, 'changed-by-review'), 3);
  assert.match(html, /data-testid="changed-by-review" data-count="3">3 decisions changed by review since the run \(<bdi>Asha &lt;b&gt;Rao&lt;\/b&gt;<\/bdi>, \d+ \w+ \d{4}, \d\d:\d\d IST\)\./);
  assert.match(html, /data-testid="as-reviewed">Decisions as they stand now, as the release takes them: 3 decisions changed by review/);
  const since = rowsOf(tableOf(html, 'since')).map((cells) => ({
    line: /<span class="mono">(\d+)</.exec(cells[0]!)?.[1],
    ran: /data-testid="ran" data-decision="(\w+)"/.exec(cells[3]!)?.[1],
    now: /data-testid="now" data-decision="(\w+)"/.exec(cells[4]!)?.[1],
    why: cells[5]!,
  }));
  assert.deepEqual(since.map(({ line, ran: r, now: n }) => `${line} ${r}→${n}`), ['3 HOLD→PAY', '5 REVIEW→PAY', '6 REVIEW→HOLD']);
  assert.match(since[0]!.why, /^<bdi>accepted by Asha &lt;b&gt;Rao&lt;\/b&gt;<\/bdi><br><small>\d+ \w+ \d{4}, \d\d:\d\d IST<\/small><br><small>note: <bdi>&lt;script&gt;alert\(1\)&lt;\/script&gt; invoice checked, a\/c ••••6140<\/bdi><\/small>$/);
  assert.match(since[2]!.why, /^<bdi>rejected by Asha &lt;b&gt;Rao&lt;\/b&gt;<\/bdi>/);

  // Nothing from the state unescaped, no account in full.
  assert.doesNotMatch(html, /<b>Rao<\/b>|<script>/);
  assert.doesNotMatch(html, /860000000012|53062580996140/);

  // The release pays exactly the payees the report counts as PAY.
  const release = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(release.code, 0, release.stderr);
  const paid = readCsvObjects(path.join(dir, 'payout.csv')).map((r) => r['Beneficiary Name']);
  assert.deepEqual(paid, ['Asha Rao', 'Ravi Kumar', 'Sunita Devi', 'Mohammed Irfan Hussain']);
  assert.equal(paid.length, now.PAY);

  // The run's own page, written before any review, is as it was.
  assert.equal(fs.readFileSync(path.join(dir, 'run.html'), 'utf8'), before);
});
