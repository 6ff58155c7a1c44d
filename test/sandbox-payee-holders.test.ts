/**
 * `bank FILE --sandbox` without `--sandbox-accounts` (issue #30): the in-process sandbox answers
 * each account with the file's own payee name written the way banks print it (bankStyleHolder),
 * with the documented shares of different and changing holders. Unit tables for the writing
 * style, the sandbox over HTTP, and the real CLI on a file of realistic names over two nights.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { request } from 'undici';
import { BankResultSchema, OPS, successEnvelope } from '../src/api/schemas.js';
import { matchNames } from '../src/match/index.js';
import {
  bankStyleHolder,
  CHANGED_HOLDER_SHARE,
  DIFFERENT_HOLDER_SHARE,
  holderNameFor,
  holderShare,
  payeeHolder,
  startSandbox,
  type Sandbox,
  type SandboxOptions,
} from '../src/sandbox/index.js';
import { readCsvObjects, runCli, tempDir } from './helpers/cli.js';

const DAY = 24 * 60 * 60 * 1000;

test('bankStyleHolder writes a payee name the ways banks print it (table)', () => {
  const table: readonly (readonly [name: string, account: string, holder: string, what: string])[] = [
    ['Rajesh Kumar Sharma', '500000000101', 'RAJESH KUMAR SHARMA', 'upper case'],
    ['रमेश कुमार', '500000000101', 'रमेश कुमार', "an Indian script kept whole: its vowel signs are no punctuation (they were cut: 'रम श क म र')"],
    ['Rajesh Kumar Sharma', '500000000100', 'SHARMA RAJESH KUMAR', 'surname first'],
    ['Rajesh Kumar Sharma', '500000000102', 'R K SHARMA', 'initials for the given and middle names'],
    ['Rajesh Kumar Sharma', '500000000105', 'RAJESH K SHARMA', 'an initial for the middle name'],
    ['Rajesh Kumar Sharma', '500000000104', 'MR R K SHARMA', 'a title added'],
    ['Rajesh Kumar Sharma', '500000000183', 'RAJESH KUMAR SHARMA S/O YOGESH SHARMA', "a father's name clause"],
    ['Rajesh Kumar Sharma', '500000000215', 'MR RAJESH KUMAR SHAR', 'cut at a 20-character field'],
    ['Mrs. Sunita Devi', '500000000101', 'SUNITA DEVI', "the file's title dropped"],
    ['Mrs. Sunita Devi', '500000000110', 'SMT DEVI SUNITA', 'SMT added, DEVI first'],
    ['Mrs. Sunita Devi', '500000000183', 'SUNITA DEVI W/O SANTOSH', "a husband's name clause; DEVI is no surname to give him"],
    ['Apex Infotech Solutions Private Limited', '500000000100', 'APEX INFOTECH SOLUTIONS PVT LTD', 'the legal form short'],
    ['Apex Infotech Solutions Private Limited', '500000000113', 'APEX INFOTECH SOLUTIONS PRIVATE LIMITED', 'the legal form in full'],
    ['Apex Infotech Solutions Private Limited', '500000000104', 'M/S APEX INFOTECH SOLUTIONS PVT LTD', 'M/S'],
    ['Apex Infotech Solutions Private Limited', '500000000122', 'APEX INFOTECH SOLUTI', 'a firm cut at 20'],
    ['Laxmi Narayan Hardware', '500000000102', 'LAXMI NARAYAN HARDWARE', 'a firm without a legal form keeps its words (no L N HARDWARE)'],
    ['Green Valley Landscaping', '500000000102', 'GREEN VALLEY LANDSCAPING', 'a line of business by its ending'],
    ['Deshmukh, Prakash', '500000000100', 'PRAKASH DESHMUKH', 'punctuation dropped (and the order turned)'],
    ['Ramesh Kumar S/o Shyam Lal', '500000000100', 'RAMESH KUMAR S/O SHYAM LAL', 'a relation clause the file gives is kept'],
    ['Shri Ramesh Kumar S/o Shyam Lal', '500000000100', 'RAMESH KUMAR S/O SHYAM LAL', 'and its title dropped'],
  ];
  for (const [name, account, holder, what] of table) assert.equal(bankStyleHolder(name, account), holder, `${name} (${account}): ${what}`);
  assert.equal(bankStyleHolder('  ', '500000000100'), holderNameFor('500000000100'), 'no name: the generated holder');
  assert.equal(bankStyleHolder('Rajesh Kumar Sharma', '500000000102', 1), bankStyleHolder('Rajesh Kumar Sharma', '500000000102'), 'seed 1 is the default');
});

const NAMES = ['Rajesh Kumar Sharma', 'Sunita Devi', 'Venkatesh Iyer', 'Jasleen Kaur Gill', 'Mohammed Irfan Hussain', 'Nitin Suresh Deshpande',
  'K. Senthil', 'Shree Ganesh Traders', 'Krishna Textiles Pvt. Ltd.', 'Chandrasekhar Venkataraman Subramanian', 'Moumita Chatterjee'];
const ACCOUNTS = Array.from({ length: 300 }, (_, i) => String(710000000000 + i * 7919));

test('bankStyleHolder: deterministic per account and seed, upper case, at most 50 characters, firms never in initials', () => {
  for (const name of NAMES) {
    const holders = ACCOUNTS.map((a) => bankStyleHolder(name, a));
    assert.deepEqual(ACCOUNTS.map((a) => bankStyleHolder(name, a)), holders, 'the same again');
    const seeded = ACCOUNTS.map((a) => bankStyleHolder(name, a, 7));
    assert.ok(seeded.some((h, i) => h !== holders[i]), `${name}: the seed changes the style`);
    for (const holder of holders) {
      assert.equal(holder, holder.toUpperCase());
      assert.ok(holder.length <= 50 && holder === holder.trim() && holder !== '', holder);
      assert.doesNotMatch(holder, /[.,]/);
    }
    assert.ok(new Set(holders).size >= (/TRADERS|LTD/.test(name.toUpperCase()) ? 2 : 3), `${name}: several styles (${[...new Set(holders)].join(' | ')})`);
  }
  for (const firm of ['Shree Ganesh Traders', 'Krishna Textiles Pvt. Ltd.']) {
    for (const a of ACCOUNTS) assert.doesNotMatch(bankStyleHolder(firm, a), /^(M\/S )?[A-Z] [A-Z] /, firm);
  }
});

test('the same person written bank-style still matches: mostly DIRECT or GOOD, never NO_MATCH (the real matcher)', () => {
  const counts: Record<string, number> = {};
  for (const name of NAMES) {
    for (const a of ACCOUNTS) {
      const verdict = matchNames(name, bankStyleHolder(name, a)).result;
      counts[verdict] = (counts[verdict] ?? 0) + 1;
    }
  }
  const total = NAMES.length * ACCOUNTS.length;
  const directOrGood = (counts.DIRECT_MATCH ?? 0) + (counts.GOOD_PARTIAL_MATCH ?? 0);
  assert.ok(directOrGood / total >= 0.85, `DIRECT or GOOD: ${JSON.stringify(counts)}`);
  assert.ok((counts.POOR_PARTIAL_MATCH ?? 0) / total <= 0.02, `POOR: ${JSON.stringify(counts)}`);
  assert.equal(counts.NO_MATCH ?? 0, 0, JSON.stringify(counts));
});

test('holderShare: the documented shares of different and changing holders, by a seeded hash of the account', () => {
  const accounts = Array.from({ length: 50_000 }, (_, i) => String(300000000000 + i * 7919));
  const shares = { same: 0, different: 0, changed: 0 };
  for (const a of accounts) shares[holderShare(a)] += 1;
  assert.ok(Math.abs(shares.different / accounts.length - DIFFERENT_HOLDER_SHARE) < 0.005, JSON.stringify(shares));
  assert.ok(Math.abs(shares.changed / accounts.length - CHANGED_HOLDER_SHARE) < 0.005, JSON.stringify(shares));

  const changed = accounts.find((a) => holderShare(a) === 'changed')!;
  const different = accounts.find((a) => holderShare(a) === 'different')!;
  const same = accounts.find((a) => holderShare(a) === 'same')!;
  const name = 'Rajesh Kumar Sharma';
  assert.equal(payeeHolder(name, same, 1, 20000), bankStyleHolder(name, same));
  assert.equal(payeeHolder(name, same, 1, 20001), bankStyleHolder(name, same));
  assert.equal(payeeHolder(name, changed, 1, 20000), bankStyleHolder(name, changed), 'even IST day: the payee');
  assert.notEqual(payeeHolder(name, changed, 1, 20001), bankStyleHolder(name, changed), 'odd IST day: another person');
  assert.equal(payeeHolder(name, different, 1, 20000), payeeHolder(name, different, 1, 20001), 'a different holder every day, the same one');
  assert.equal(matchNames(name, payeeHolder(name, different, 1, 20000)).result, 'NO_MATCH');
});

const BankEnvelope = successEnvelope(BankResultSchema);

async function verify(sandbox: Sandbox, accountNumber: string): Promise<{ beneficiaryName: string | null; verificationStatus: string }> {
  const res = await request(`${sandbox.url}/vas-api/v1/${OPS.pennyLess}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sandbox-token' },
    body: JSON.stringify({ accountNumber, ifscNumber: 'SBIN0001234' }),
  });
  return BankEnvelope.parse(await res.body.json()).body;
}

async function start(t: TestContext, options: SandboxOptions): Promise<Sandbox> {
  const sandbox = await startSandbox(options);
  t.after(() => sandbox.close());
  return sandbox;
}

test('startSandbox({ payeeNames }): holders from the payee names; the registry and the test accounts keep their answers; a changing holder follows the IST day', async (t) => {
  const changed = ACCOUNTS.find((a) => holderShare(a) === 'changed' && !/9[0-7]$/.test(a))!;
  const same = ACCOUNTS.find((a) => holderShare(a) === 'same' && !/9[0-7]$/.test(a))!;
  // 23:59 IST on 1 Jan 2024 (18:29 UTC), then a minute later: the next IST day.
  let now = Date.UTC(2024, 0, 1, 18, 29, 0);
  const payeeNames = new Map([[changed, 'Anjali Verma'], [same, 'Rajesh Kumar Sharma'], ['500000000090', 'Closed Account'], ['500000000094', 'Neha Sharma'], ['500000000011', 'Vikram Joshi']]);
  const sandbox = await start(t, { payeeNames, now: () => now, accounts: [{ accountNumber: '500000000011', ifsc: '', name: 'REGISTRY HOLDER' }] });

  assert.equal((await verify(sandbox, same)).beneficiaryName, bankStyleHolder('Rajesh Kumar Sharma', same));
  assert.equal((await verify(sandbox, '500000000011')).beneficiaryName, 'REGISTRY HOLDER', 'the registry wins');
  assert.equal((await verify(sandbox, '500000000090')).verificationStatus, 'NOT_VERIFIED', 'a 90 account is still closed');
  const formula = (await verify(sandbox, '500000000094')).beneficiaryName ?? '';
  assert.ok(formula.startsWith('=') && formula.includes(bankStyleHolder('Neha Sharma', '500000000094')), formula);
  assert.equal((await verify(sandbox, '710000000011')).beneficiaryName, holderNameFor('710000000011'), 'an account the file does not name: generated');

  const before = (await verify(sandbox, changed)).beneficiaryName;
  now += 60_000;
  const after = (await verify(sandbox, changed)).beneficiaryName;
  assert.notEqual(before, after, 'the holder changed at midnight IST');
  assert.ok([before, after].includes(bankStyleHolder('Anjali Verma', changed)), `${before} / ${after}`);
  assert.equal((await verify(sandbox, same)).beneficiaryName, bankStyleHolder('Rajesh Kumar Sharma', same), 'the others stay');
});

// ---- the CLI on a file of realistic names ----

const GIVEN_M = ['Rajesh', 'Sanjay', 'Amit', 'Suresh', 'Venkatesh', 'Karthik', 'Srinivas', 'Manjunath', 'Arjun', 'Imran', 'Gurpreet', 'Sourav',
  'Prakash', 'Nitin', 'Harshad', 'Anil', 'Vijay', 'Rahul', 'Deepak', 'Joseph'];
const GIVEN_F = ['Sunita', 'Priya', 'Lakshmi', 'Kavitha', 'Meena', 'Ayesha', 'Jasleen', 'Moumita', 'Ashwini', 'Hetal', 'Anjali', 'Neha', 'Pooja', 'Rekha', 'Divya'];
const MIDDLE = ['Kumar', 'Prasad', 'Chandra', 'Mohan', 'Suresh', 'Dilip', 'Lal'];
const SURNAMES = ['Sharma', 'Verma', 'Gupta', 'Reddy', 'Naidu', 'Iyer', 'Nair', 'Menon', 'Patil', 'Deshmukh', 'Kulkarni', 'Shah', 'Patel', 'Mehta',
  'Chatterjee', 'Banerjee', 'Das', 'Khan', 'Shaikh', 'Ansari', 'Gill', 'Sandhu', 'Mishra', 'Yadav', 'Joshi', 'Rao', 'Gowda', 'Pillai', 'Fernandes', 'Mohanty'];
const FIRMS = ['Shree Ganesh Traders', 'Balaji Enterprises', 'Sunrise Logistics Pvt Ltd', 'Om Sai Electricals', 'Krishna Textiles Private Limited',
  'Mehta & Sons', 'Apex Infotech Solutions LLP', 'Annapurna Caterers', 'Royal Security Services', 'Deccan Hardware Stores'];
const IFSCS = ['SBIN0001234', 'HDFC0000123', 'ICIC0001234', 'UTIB0000456'];

/** A payee list as a finance team keeps it: Title Case, some titles and middle names, a tenth firms; no test-account endings. */
function realisticPayees(count: number): string {
  const lines = ['Payee Name,Account Number,IFSC,Amount'];
  for (let i = 0; i < count; i += 1) {
    let account = 610000000000 + i * 1013;
    if (/9[0-7]$/.test(String(account))) account += 10;
    const female = i % 3 === 1;
    const given = female ? GIVEN_F[(i * 7) % GIVEN_F.length]! : GIVEN_M[(i * 11) % GIVEN_M.length]!;
    const middle = i % 5 < 2 && !female ? ` ${MIDDLE[(i * 3) % MIDDLE.length]}` : '';
    const title = i % 13 === 0 ? (female ? 'Mrs. ' : 'Mr. ') : '';
    const name = i % 10 === 9 ? FIRMS[(i / 10) % FIRMS.length | 0]! : `${title}${given}${middle} ${SURNAMES[(i * 17) % SURNAMES.length]}`;
    lines.push(`"${name}",${account},${IFSCS[i % IFSCS.length]},${1000 + i}.00`);
  }
  return `${lines.join('\n')}\n`;
}

/** A verdict that says another person holds the account (a shared initial or surname may lift NO_MATCH to POOR). */
const isSomeoneElse = (verdict: string | undefined): boolean => verdict === 'NO_MATCH' || verdict === 'POOR_PARTIAL_MATCH';

function verdicts(rows: readonly Record<string, string>[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.name_match ?? ''] = (counts[row.name_match ?? ''] ?? 0) + 1;
  return counts;
}

test('bank FILE --sandbox on 200 realistic names: mostly DIRECT/GOOD, a few NO_MATCH near the documented share; the next IST night catches the changed holders', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'payees.csv'), realisticPayees(200));
  const first = await runCli(['bank', 'payees.csv', '--sandbox', '-o', 'out.csv'], { cwd: dir });
  assert.equal(first.code, 0, first.stderr);
  const rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.equal(rows.length, 200);
  assert.ok(rows.every((r) => r.verify_status === 'VERIFIED'), 'no test accounts in the file');
  assert.ok(rows.every((r) => r.beneficiary_name !== '' && r.beneficiary_name === r.beneficiary_name!.toUpperCase()), 'holders as banks print them');
  const counts = verdicts(rows);
  const directOrGood = (counts.DIRECT_MATCH ?? 0) + (counts.GOOD_PARTIAL_MATCH ?? 0);
  assert.ok(directOrGood >= 0.8 * rows.length, `DIRECT or GOOD: ${JSON.stringify(counts)}`);
  const noMatch = counts.NO_MATCH ?? 0;
  // The documented shares: 3% another person, and half of the 2% changing holders on any one night.
  assert.ok(noMatch >= 1 && noMatch <= 0.1 * rows.length, `NO_MATCH near ${DIFFERENT_HOLDER_SHARE * 100}%: ${JSON.stringify(counts)}`);
  for (const row of rows) {
    if (holderShare(row['Account Number']!) === 'different') assert.ok(isSomeoneElse(row.name_match), `${row['Payee Name']} / ${row.beneficiary_name}: ${row.name_match}`);
  }
  assert.ok(rows.every((r) => r.changed_since === ''), 'the first check of every account');

  // The next night (the CLI's clock, and so the in-process sandbox's, a day on): a new run re-checks every payee.
  const second = await runCli(['bank', 'payees.csv', '--sandbox', '-o', 'out2.csv'], { cwd: dir, env: { VAS_TEST_CLOCK_OFFSET_MS: String(DAY) } });
  assert.equal(second.code, 0, second.stderr);
  const next = readCsvObjects(path.join(dir, 'out2.csv'));
  const changed = next.filter((r) => r.changed_since !== '');
  const expected = next.filter((r) => holderShare(r['Account Number']!) === 'changed');
  assert.ok(changed.length >= 1, 'some holders changed overnight');
  assert.deepEqual(changed.map((r) => r['Account Number']), expected.map((r) => r['Account Number']), 'exactly the changing share');
  for (const row of changed) {
    const before = rows.find((r) => r['Account Number'] === row['Account Number'])!;
    assert.notEqual(row.beneficiary_name, before.beneficiary_name);
    assert.ok([row.name_match, before.name_match].some(isSomeoneElse), `one of the two nights answers another person: ${JSON.stringify([row['Payee Name'], before.beneficiary_name, before.name_match, row.beneficiary_name, row.name_match])}`);
  }
  assert.deepEqual(next.filter((r) => r.changed_since === '').map((r) => r.beneficiary_name), rows.filter((r) => !changed.some((c) => c['Account Number'] === r['Account Number'])).map((r) => r.beneficiary_name), 'the other holders answer the same');
});

test('bank FILE --sandbox with no name column: generated holders, as before', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'accounts.csv'), ['Account Number,IFSC', '610000000011,SBIN0001234', '610000000022,HDFC0000123'].join('\n') + '\n');
  const run = await runCli(['bank', 'accounts.csv', '--sandbox', '-o', 'out.csv'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  const rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.deepEqual(rows.map((r) => r.beneficiary_name), [holderNameFor('610000000011'), holderNameFor('610000000022')]);
});
