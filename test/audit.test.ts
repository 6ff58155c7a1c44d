/**
 * `vas-verify audit` (issue #31): the real CLI prints the trail a bank run, a review import and a
 * release left (accounts masked, JSON lines or CSV) and verifies its hash chain; an entry changed
 * or deleted with raw SQL (the append-only triggers dropped first, as someone editing the file
 * would) is reported with exit 1 and one line naming the first broken entry.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { runCli, tempDir } from './helpers/cli.js';

async function trailOfThree(dir: string): Promise<void> {
  fs.writeFileSync(path.join(dir, 'holders.csv'), 'accountNumber,ifsc,name,status\n860000000011,SBIN0001234,ASHA RAO,VERIFIED\n860000000012,SBIN0001234,VIKRAM SINGH,VERIFIED\n');
  fs.writeFileSync(path.join(dir, 'payees.csv'), 'Name,Account,IFSC\nAsha Rao,860000000011,SBIN0001234\nRavi Kumar,860000000012,SBIN0001234\n');
  const run = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--state', 's.sqlite', '--sandbox', '--sandbox-accounts', 'holders.csv'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  const rows = parse(fs.readFileSync(path.join(dir, 'out.csv'))) as string[][];
  rows[2]![rows[0]!.indexOf('decision')] = 'PAY';
  fs.writeFileSync(path.join(dir, 'reviewed.csv'), stringify(rows));
  assert.equal((await runCli(['review', '--import', 'reviewed.csv', '--state', 's.sqlite', '--reviewer', 'asha'], { cwd: dir })).code, 0);
  assert.equal((await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite'], { cwd: dir })).code, 0);
}

/** Runs raw SQL on the state as a person with the file would, the append-only triggers dropped. */
function tamper(file: string, sql: string): void {
  const db = new Database(file);
  db.exec('DROP TRIGGER audit_no_update; DROP TRIGGER audit_no_delete;');
  db.exec(sql);
  db.close();
}

function reviewSeq(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT seq FROM audit WHERE kind = 'review'").pluck().get() as number;
  } finally {
    db.close();
  }
}

test('audit prints the trail with accounts masked, JSON lines and CSV, and verifies the chain', async (t) => {
  const dir = tempDir(t);
  await trailOfThree(dir);
  const json = await runCli(['audit', '--state', 's.sqlite', '--run', '1'], { cwd: dir });
  assert.equal(json.code, 0, json.stderr);
  const entries = json.stdout.trim().split('\n').map((l) => JSON.parse(l) as { seq: number; kind: string; entry: Record<string, unknown> });
  const review = entries.find((e) => e.kind === 'review')!;
  assert.deepEqual([review.entry.account, review.entry.holder, review.entry.verdict, review.entry.reviewer, review.entry.via], ['xxxxxxxx0012', 'VIKRAM SINGH', 'ACCEPTED', 'asha', 'import']);
  assert.equal(entries.filter((e) => e.kind === 'release').length, 1);
  assert.deepEqual(entries.map((e) => e.seq), [...entries.keys()].map((i) => entries[0]!.seq + i), 'in order');
  assert.doesNotMatch(json.stdout, /86000000001[12]/, 'no full account number');
  assert.match(json.stderr, /audit trail: \d+ entries \(\d+ of run 1\), hash chain verified/);
  // A run the state does not have is a usage error, not an empty trail.
  const unknown = await runCli(['audit', '--state', 's.sqlite', '--run', '9'], { cwd: dir });
  assert.equal(unknown.code, 2, unknown.stderr);
  assert.match(unknown.stderr, /^error: state file s\.sqlite has no run 9: leave out --run for the whole trail$/m);

  const csv = await runCli(['audit', '--state', 's.sqlite', '--format', 'csv'], { cwd: dir });
  assert.equal(csv.code, 0, csv.stderr);
  const records = parse(csv.stdout, { columns: true }) as Record<string, string>[];
  const reviewed = records.find((r) => r.kind === 'review')!;
  assert.deepEqual([reviewed.who, reviewed.decision, reviewed.row, reviewed.account, reviewed.holder], ['asha', 'ACCEPTED', '2', 'xxxxxxxx0012', 'VIKRAM SINGH']);
  assert.doesNotMatch(csv.stdout, /86000000001[12]/);
});

test('audit reports an entry changed after it was written: exit 1, one line naming it', async (t) => {
  const dir = tempDir(t);
  await trailOfThree(dir);
  const state = path.join(dir, 's.sqlite');
  const seq = reviewSeq(state);
  tamper(state, `UPDATE audit SET entry = replace(entry, '"reviewer":"asha"', '"reviewer":"mallory"') WHERE seq = ${seq}`);
  const audit = await runCli(['audit', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(audit.code, 1, audit.stderr);
  const lines = audit.stderr.trim().split('\n');
  assert.equal(lines.length, 1, audit.stderr);
  assert.match(lines[0]!, new RegExp(`the audit trail of s\\.sqlite is broken: entry ${seq} was changed after it was written`));
});

test('audit reports a deleted entry: exit 1, naming the entry that is missing', async (t) => {
  const dir = tempDir(t);
  await trailOfThree(dir);
  const state = path.join(dir, 's.sqlite');
  const seq = reviewSeq(state);
  tamper(state, `DELETE FROM audit WHERE seq = ${seq}`);
  const audit = await runCli(['audit', '--state', 's.sqlite', '--run', '1'], { cwd: dir });
  assert.equal(audit.code, 1, audit.stderr);
  assert.match(audit.stderr.trim(), new RegExp(`^error: the audit trail of s\\.sqlite is broken: entry ${seq} is missing`));
  assert.doesNotMatch(audit.stdout, /"kind":"review"/);
});
