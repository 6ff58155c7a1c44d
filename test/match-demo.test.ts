/**
 * The demo of issue #14: `bank --sandbox --sandbox-accounts FILE` answers from the holder
 * registry, so the name verdicts show the real spread instead of NO_MATCH everywhere.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { readCsvObjects, ROOT, runCli, tempDir } from './helpers/cli.js';

test('bank --sandbox --sandbox-accounts answers with the registry holders', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(
    path.join(dir, 'holders.csv'),
    ['accountNumber,ifsc,name,status', '860000000011,SBIN0001234,SMT LAXMI DEVI,VERIFIED', '860000000012,SBIN0001234,VIMALA SHARMA,VERIFIED', '860000000013,SBIN0001234,R SHARMA,VERIFIED'].join('\n') + '\n',
  );
  fs.writeFileSync(
    path.join(dir, 'payees.csv'),
    ['Payee Name,Account No,IFSC Code', 'Lakshmi Devi,860000000011,SBIN0001234', 'Vimal Sharma,860000000012,SBIN0001234', 'Rahul Sharma,860000000013,SBIN0001234'].join('\n') + '\n',
  );
  const run = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--sandbox', '--sandbox-accounts', 'holders.csv'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  const rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.deepEqual(rows.map((r) => r.beneficiary_name), ['SMT LAXMI DEVI', 'VIMALA SHARMA', 'R SHARMA']);
  // Laxmi / Lakshmi is one name, but a different letter is at most GOOD (issue #28).
  assert.deepEqual(rows.map((r) => r.name_match), ['GOOD_PARTIAL_MATCH', 'POOR_PARTIAL_MATCH', 'MODERATE_PARTIAL_MATCH']);
});

test('--sandbox-accounts without --sandbox is a usage error before any call', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'payees.csv'), 'Payee Name,Account No,IFSC Code\nA B,860000000011,SBIN0001234\n');
  const run = await runCli(['bank', 'payees.csv', '--base-url', 'http://127.0.0.1:9', '--sandbox-accounts', 'holders.csv'], { cwd: dir });
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /--sandbox-accounts needs --sandbox/);
});

test('name-match --explain shows the transliteration and the rule behind each pairing (issue #28)', async (t) => {
  const dir = tempDir(t);
  const run = await runCli(['name-match', 'राम कुमार शर्मा', 'RAM KUMAR SHARNA', '--explain'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  assert.equal(out.result, 'GOOD_PARTIAL_MATCH');
  assert.equal(out.tokens.expected.transliterated, 'ram kumar sharma');
  assert.deepEqual(out.pairing.map((p: { rule: string }) => p.rule), ['same letters', 'same letters', 'typo model: keyboard']);
  assert.ok(out.why.some((line: string) => line.startsWith('indic-script:')));
});

test('the README gives the verdicts the demo registry really produces (samples/payees.csv with samples/holders.csv)', async (t) => {
  const dir = tempDir(t);
  const run = await runCli(
    ['bank', path.join(ROOT, 'samples', 'payees.csv'), '-o', 'out.csv', '--state', 's.sqlite', '--summary', 'run.json', '--sandbox', '--sandbox-accounts', path.join(ROOT, 'samples', 'holders.csv')],
    { cwd: dir },
  );
  assert.equal(run.code, 3, run.stderr); // the two daily-limit test accounts (…92) are deferred
  const nameMatch = (JSON.parse(fs.readFileSync(path.join(dir, 'run.json'), 'utf8')) as { nameMatch: Record<string, number> }).nameMatch;
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
  const claim = /spread of verdicts \((\d+) DIRECT, (\d+) GOOD, (\d+) MODERATE, (\d+) POOR, (\d+) NO_MATCH\)/.exec(readme);
  assert.ok(claim, 'the README states the spread of the demo registry');
  const [, direct, good, moderate, poor, none] = claim.map(Number);
  assert.deepEqual(
    { DIRECT_MATCH: direct, GOOD_PARTIAL_MATCH: good, MODERATE_PARTIAL_MATCH: moderate, POOR_PARTIAL_MATCH: poor, NO_MATCH: none },
    {
      DIRECT_MATCH: nameMatch.DIRECT_MATCH ?? 0,
      GOOD_PARTIAL_MATCH: nameMatch.GOOD_PARTIAL_MATCH ?? 0,
      MODERATE_PARTIAL_MATCH: nameMatch.MODERATE_PARTIAL_MATCH ?? 0,
      POOR_PARTIAL_MATCH: nameMatch.POOR_PARTIAL_MATCH ?? 0,
      NO_MATCH: nameMatch.NO_MATCH ?? 0,
    },
  );
});
