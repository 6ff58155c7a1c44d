/**
 * Who an acceptance is for, and who gave it (a black-box review's findings A and B), over the real
 * CLI and the embedded sandbox:
 * - A: an acceptance holds for the payee name the file gave at the reviewed row. The same account,
 *   IFSC and holder under another payee name (a renamed vendor record) is not paid on it: the row
 *   gets its own decision, `PAYEE_NAME_CHANGED`; the same name typed differently (case, spacing,
 *   punctuation) keeps it; a review whose row the state does not have counts for no name.
 * - B: one person is one reviewer however the name is typed ("asha", "Asha", NFKC): two approvals
 *   need two people, and a second approval by the same person is refused.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { approvalsNeeded, decide, DEFAULT_POLICY, payeeNameKey, reviewerKey } from '../src/decision/index.js';
import { ifscRegistry } from '../src/input/ifsc-registry.js';
import { refusal, ReviewSession } from '../src/review/session.js';
import { recordPersonDecision } from '../src/review/record.js';
import { openDatabase } from '../src/state/db.js';
import { forPayeeName, standingOf, type PayeeReview } from '../src/state/reviews.js';
import type { RunRowRecord } from '../src/state/types.js';
import { readCsvObjects, runCli, tempDir } from './helpers/cli.js';

const HOLDERS = 'accountNumber,ifsc,name,status\n860000000021,SBIN0001234,PRIYA KHANNA,VERIFIED\n860000000013,SBIN0001234,SUNITA DEVI,VERIFIED\n';
const payees = (name: string) => `Beneficiary Name,Account Number,IFSC,Amount\n${name},860000000021,SBIN0001234,750000\nSunita Devi,860000000013,SBIN0001234,1200\n`;

const bank = (dir: string, input: string, output: string, extra: string[] = []) =>
  runCli(['bank', input, '-o', output, '--state', 's.sqlite', '--sandbox', '--sandbox-accounts', 'holders.csv', ...extra], { cwd: dir });

/** The enriched CSV with row `row`'s decision cell set to `word`, as a person leaves it in a spreadsheet. */
function edit(file: string, out: string, row: number, word: string): void {
  const rows = parse(fs.readFileSync(file)) as string[][];
  rows[row]![rows[0]!.indexOf('decision')] = word;
  fs.writeFileSync(out, stringify(rows));
}

const importAs = (dir: string, file: string, reviewer: string, extra: string[] = []) =>
  runCli(['review', '--import', file, '--state', 's.sqlite', '--reviewer', reviewer, ...extra], { cwd: dir });

const firstRow = (file: string) => readCsvObjects(file)[0]!;
const decisionOf = (file: string) => {
  const r = firstRow(file);
  return `${r.decision} ${r.decision_reason}`;
};

/** The newest run's decision of data row 1 as the state keeps it (what the review page and the release read). */
function stateDecision(dir: string): string {
  const db = openDatabase(path.join(dir, 's.sqlite'));
  try {
    const r = db.prepare('SELECT decision, decision_reason AS reason FROM run_rows WHERE row = 1 ORDER BY run_id DESC LIMIT 1').get() as { decision: string; reason: string };
    return `${r.decision} ${r.reason}`;
  } finally {
    db.close();
  }
}

/** Night 1: "Priya Khan" against the bank's PRIYA KHANNA is held; asha accepts it by an import. */
async function acceptedNight(dir: string, approvals: string[] = []): Promise<void> {
  fs.writeFileSync(path.join(dir, 'holders.csv'), HOLDERS);
  fs.writeFileSync(path.join(dir, 'night1.in.csv'), payees('Priya Khan'));
  assert.equal((await bank(dir, 'night1.in.csv', 'night1.csv', approvals)).code, 0);
  assert.equal(decisionOf(path.join(dir, 'night1.csv')), 'HOLD NAME_MISMATCH');
  assert.equal(firstRow(path.join(dir, 'night1.csv')).name_match, 'POOR_PARTIAL_MATCH');
  edit(path.join(dir, 'night1.csv'), path.join(dir, 'reviewed1.csv'), 1, 'PAY');
  const imported = await importAs(dir, 'reviewed1.csv', 'asha', approvals);
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(imported.stdout, /accepted holder "PRIYA KHANNA" by asha/);
}

test('A: an acceptance given on "Priya Khan" does not pay "Vikram Singh Enterprises" on the same account, IFSC and holder', async (t) => {
  const dir = tempDir(t);
  await acceptedNight(dir);
  // The same name again: paid on the acceptance.
  assert.equal((await bank(dir, 'night1.in.csv', 'again.csv', ['--resume'])).code, 0);
  assert.equal(decisionOf(path.join(dir, 'again.csv')), 'PAY REVIEW_ACCEPTED');

  // Another payee record pointing at that account: not paid, and the reason says why.
  fs.writeFileSync(path.join(dir, 'night2.in.csv'), payees('Vikram Singh Enterprises'));
  const night2 = await bank(dir, 'night2.in.csv', 'night2.csv');
  assert.equal(night2.code, 0, night2.stderr);
  const row = firstRow(path.join(dir, 'night2.csv'));
  assert.deepEqual([row.beneficiary_name, row.name_match, row.decision, row.decision_reason], ['PRIYA KHANNA', 'NO_MATCH', 'HOLD', 'PAYEE_NAME_CHANGED']);
  assert.equal(stateDecision(dir), 'HOLD PAYEE_NAME_CHANGED');
  assert.match(night2.stderr, /HOLD 1: PAYEE_NAME_CHANGED 1/);

  // The same payee typed differently (case, spacing, punctuation) keeps the acceptance.
  fs.writeFileSync(path.join(dir, 'night3.in.csv'), payees('"PRIYA  KHAN."'));
  assert.equal((await bank(dir, 'night3.in.csv', 'night3.csv')).code, 0);
  assert.equal(decisionOf(path.join(dir, 'night3.csv')), 'PAY REVIEW_ACCEPTED');
  assert.equal(stateDecision(dir), 'PAY REVIEW_ACCEPTED');

  // A person can accept the new name in its own right; then both names are paid.
  edit(path.join(dir, 'night2.csv'), path.join(dir, 'reviewed2.csv'), 1, 'PAY');
  const second = await importAs(dir, 'reviewed2.csv', 'ravi', ['--run', '2']);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /accepted holder "PRIYA KHANNA" by ravi; now PAY/);
  assert.equal((await bank(dir, 'night2.in.csv', 'night2b.csv', ['--resume'])).code, 0);
  assert.equal(decisionOf(path.join(dir, 'night2b.csv')), 'PAY REVIEW_ACCEPTED');
});

test('A: the review page (its session) and the import decide the renamed row on its own name', async (t) => {
  const dir = tempDir(t);
  await acceptedNight(dir);
  fs.writeFileSync(path.join(dir, 'night2.in.csv'), payees('Vikram Singh Enterprises'));
  assert.equal((await bank(dir, 'night2.in.csv', 'night2.csv')).code, 0);
  // The page's session (what its HTTP API answers with) lists the row with a standing that says
  // the acceptance was for another name.
  const db = openDatabase(path.join(dir, 's.sqlite'));
  t.after(() => db.close());
  const session = new ReviewSession({ db, runId: 2, policy: DEFAULT_POLICY, reviewer: 'asha', registry: ifscRegistry(), versions: { tool: 't', registry: 'r' }, now: () => Date.now() });
  const [listed] = session.page({}, { after: 0 });
  assert.ok(listed, 'the renamed row is listed for review');
  assert.equal(listed.standing.reason, 'PAYEE_NAME_CHANGED');
  assert.match(listed.standing.text, /HOLD · PAYEE_NAME_CHANGED · accepted by asha for another payee name/);
  // asha may accept the new name (it is another decision); the row's standing is then hers for it.
  const [answer] = session.decide('ACCEPTED', [{ row: 1, seen: listed.seen, reviewed: listed.reviewed }], 'checked: Vikram Singh Enterprises trades as Priya Khanna');
  assert.equal(answer!.ok, true, answer!.message);
  assert.equal(answer!.standing!.text, 'PAY · REVIEW_ACCEPTED · accepted by asha');
});

test('A: the release of the renamed row pays only on an acceptance of that name', async (t) => {
  const dir = tempDir(t);
  await acceptedNight(dir);
  fs.writeFileSync(path.join(dir, 'night2.in.csv'), payees('Vikram Singh Enterprises'));
  assert.equal((await bank(dir, 'night2.in.csv', 'night2.csv')).code, 0);
  const release = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(release.code, 0, release.stderr);
  assert.doesNotMatch(fs.readFileSync(path.join(dir, 'payout.csv'), 'utf8'), /Vikram/);
});

test('A: an acceptance whose reviewed row the state does not have (its payee name unknown) pays no named row', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'holders.csv'), HOLDERS);
  fs.writeFileSync(path.join(dir, 'night1.in.csv'), payees('Priya Khan'));
  assert.equal((await bank(dir, 'night1.in.csv', 'night1.csv')).code, 0);
  const db = openDatabase(path.join(dir, 's.sqlite'));
  // Recorded (with its audit entry) without a run and a row, as an older version could.
  recordPersonDecision(db, { account: '860000000021', ifsc: 'SBIN0001234', holder: 'PRIYA KHANNA', verdict: 'ACCEPTED', reviewer: 'asha', note: null, runId: null, row: null, via: 'import' }, 1);
  db.close();
  assert.equal((await bank(dir, 'night1.in.csv', 'night2.csv')).code, 0);
  assert.equal(decisionOf(path.join(dir, 'night2.csv')), 'HOLD PAYEE_NAME_CHANGED');
});

test('B: "asha" and "Asha" are one reviewer: the second approval is refused and the payee is not paid', async (t) => {
  const dir = tempDir(t);
  await acceptedNight(dir);
  const again = await importAs(dir, 'reviewed1.csv', ' Asha ', ['--approvals', '2']);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stdout, '');
  assert.match(again.stderr, /row 1 \(line 2\): already accepted by asha/);
  assert.equal((await bank(dir, 'night1.in.csv', 'night2.csv', ['--resume'])).code, 0);
  // The run's policy has one approval: paid on asha's; two approvals ask a second person.
  assert.equal(decisionOf(path.join(dir, 'night2.csv')), 'PAY REVIEW_ACCEPTED');
  const held = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite', '--approvals', '2', '--exceptions', 'held.csv'], { cwd: dir });
  assert.equal(held.code, 0, held.stderr);
  const exception = readCsvObjects(path.join(dir, 'held.csv')).find((r) => r['Beneficiary Name'] === 'Priya Khan')!;
  assert.deepEqual([exception.decision, exception.decision_reason, exception.reviewed_by], ['REVIEW', 'AWAITING_APPROVAL', 'asha']);
});

test('B: two spellings of one reviewer already in the state count once (a run under approvals 2)', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'holders.csv'), HOLDERS);
  fs.writeFileSync(path.join(dir, 'policy.json'), '{"approvals": 2}');
  fs.writeFileSync(path.join(dir, 'night1.in.csv'), payees('Priya Khan'));
  assert.equal((await bank(dir, 'night1.in.csv', 'night1.csv', ['--policy', 'policy.json'])).code, 0);
  edit(path.join(dir, 'night1.csv'), path.join(dir, 'reviewed1.csv'), 1, 'PAY');
  assert.equal((await importAs(dir, 'reviewed1.csv', 'asha')).code, 0);
  // What the old rule let in: "Asha" (and a full-width "ａｓｈａ") recorded as a second reviewer,
  // by the one writer of reviews and their audit entries, as the old version recorded them.
  const db = openDatabase(path.join(dir, 's.sqlite'));
  for (const who of ['Asha', 'ａｓｈａ']) {
    recordPersonDecision(db, { account: '860000000021', ifsc: 'SBIN0001234', holder: 'PRIYA KHANNA', verdict: 'ACCEPTED', reviewer: who, note: null, runId: 1, row: 1, approvals: 2, via: 'import', evidence: { approvals: 2 } }, 2);
  }
  db.close();
  assert.equal((await bank(dir, 'night1.in.csv', 'night2.csv', ['--resume', '--policy', 'policy.json'])).code, 0);
  assert.equal(decisionOf(path.join(dir, 'night2.csv')), 'REVIEW AWAITING_APPROVAL');
  assert.equal(stateDecision(dir), 'REVIEW AWAITING_APPROVAL');
  const release = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(release.code, 0, release.stderr);
  assert.doesNotMatch(fs.readFileSync(path.join(dir, 'payout.csv'), 'utf8'), /Priya Khan/);
  // A second person pays it.
  const ravi = await importAs(dir, 'reviewed1.csv', 'ravi');
  assert.equal(ravi.code, 2, 'the night-1 file is older than the run now');
  edit(path.join(dir, 'night2.csv'), path.join(dir, 'reviewed2.csv'), 1, 'PAY');
  const second = await importAs(dir, 'reviewed2.csv', 'ravi');
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /by ravi; now PAY/);
});

test('the rules, pure: names and reviewers compared forgivingly; the standing for a row\'s name; the page refuses a second approval by one person', () => {
  assert.equal(payeeNameKey('  PRIYA  Khan. '), payeeNameKey('priya khan'));
  assert.notEqual(payeeNameKey('Priya Khanna'), payeeNameKey('Priya Khan'));
  assert.equal(payeeNameKey(null), payeeNameKey(''));
  assert.equal(reviewerKey(' Asha  Rao '), reviewerKey('asha rao'));
  assert.equal(reviewerKey('ａｓｈａ'), reviewerKey('ASHA'));
  const review = (reviewer: string, payeeName: string | null, known = true): PayeeReview => ({
    id: 1, account: 'a', ifsc: 'i', holder: 'PRIYA KHANNA', verdict: 'ACCEPTED', reviewer, note: null, runId: 1, row: 1, at: 0, payeeName, payeeKnown: known ? 1 : 0,
  });
  const reviews = [review('asha', 'Priya Khan'), review('Asha', 'Priya Khan'), review('ravi', 'Vikram Singh')];
  assert.deepEqual(standingOf(reviews, 'PRIYA KHANNA')?.reviewers, ['asha', 'ravi'], 'one person once');
  assert.deepEqual(standingOf(reviews, 'PRIYA KHANNA', 'priya khan'), { verdict: 'ACCEPTED', reviewers: ['asha'], reviews: reviews.slice(0, 2), approvals: 1 });
  // An acceptance given where two reviewers were asked for says so: one reviewer never pays it.
  const underTwo = reviews.map((r, i) => (i === 0 ? { ...r, approvals: 2 } : r));
  assert.equal(standingOf(underTwo, 'PRIYA KHANNA', 'priya khan')?.approvals, 2);
  assert.equal(approvalsNeeded(DEFAULT_POLICY, standingOf(underTwo, 'PRIYA KHANNA', 'priya khan')), 2);
  assert.equal(standingOf(reviews, 'PRIYA KHANNA', 'Someone Else')?.verdict, 'NAME_CHANGED');
  assert.equal(forPayeeName(standingOf([review('asha', null, false)], 'PRIYA KHANNA'), 'Priya Khan')?.verdict, 'NAME_CHANGED', 'a name not known counts for no name');
  const base = { status: 'VERIFIED' as const, holderChanged: false };
  assert.deepEqual(decide({ ...base, nameMatch: 'NO_MATCH', review: { verdict: 'NAME_CHANGED', reviewers: ['asha'] } }, DEFAULT_POLICY), { decision: 'HOLD', reason: 'PAYEE_NAME_CHANGED', payeeCheck: 'NO_MATCH' });
  assert.equal(decide({ ...base, nameMatch: 'MODERATE_PARTIAL_MATCH', review: { verdict: 'NAME_CHANGED', reviewers: ['asha'] } }, DEFAULT_POLICY).decision, 'REVIEW');
  assert.equal(decide({ ...base, nameMatch: 'DIRECT_MATCH', review: { verdict: 'NAME_CHANGED', reviewers: ['asha'] } }, DEFAULT_POLICY).reason, 'NAME_MATCH', 'a name the matcher pays needs no acceptance');
  assert.equal(decide({ ...base, nameMatch: 'NO_MATCH', review: { verdict: 'ACCEPTED', reviewers: ['asha', 'Asha'] } }, { ...DEFAULT_POLICY, approvals: 2 }).reason, 'AWAITING_APPROVAL');
  const row = { row: 1, line: 2, account: 'a', ifsc: 'i', name: 'Priya Khan', status: 'VERIFIED' } as RunRowRecord;
  const evidence = { beneficiaryName: 'PRIYA KHANNA' } as never;
  const two = { ...DEFAULT_POLICY, approvals: 2 as const };
  assert.equal(refusal('ACCEPTED', row, evidence, { verdict: 'ACCEPTED', reviewers: ['asha'], reviews: [], approvals: 1 }, 'ASHA', two), 'ASHA already accepted this holder: a second, different reviewer must approve it');
  assert.equal(refusal('ACCEPTED', row, evidence, { verdict: 'ACCEPTED', reviewers: ['asha'], reviews: [], approvals: 1 }, 'ravi', two), null);
});
