/**
 * A finished run re-emitted by copying its output (issue #32): only while nothing that shapes
 * the output changed — the file itself, a review, the policy, an answer past --max-age.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startSandbox } from '../src/sandbox/index.js';
import { recordPersonDecision } from '../src/review/record.js';
import { emitKey } from '../src/pipeline/bank-run/reemit.js';
import { readCsvObjects, runCli, sum, tempDir } from './helpers/cli.js';

const DAY = 86_400_000;

test('re-emit by copy: the same bytes and summary; a review, an edited output, a policy or an old answer write it afresh', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t, 'vas-reemit-');
  const lines = ['Payee Name,Account Number,IFSC,Amount'];
  for (let i = 0; i < 50; i += 1) lines.push(`Payee ${i},${500000000011 + i * 100},SBIN0001234,${1000 + i}`);
  fs.writeFileSync(path.join(dir, 'p.csv'), `${lines.join('\n')}\n`);
  const args = (days: number, ...extra: string[]) => runCli(
    ['bank', 'p.csv', '-o', 'out.csv', '--state', 's.sqlite', '--base-url', sandbox.url, '--resume', '--summary', 'sum.json', ...extra],
    { cwd: dir, env: { VAS_TEST_CLOCK_OFFSET_MS: String(days * DAY) } },
  );
  const summaryOf = () => JSON.parse(fs.readFileSync(path.join(dir, 'sum.json'), 'utf8'));
  const first = await args(0);
  assert.equal(first.code, 0, first.stderr);
  const bytes = fs.readFileSync(path.join(dir, 'out.csv'));
  const firstSummary = summaryOf();

  assert.doesNotMatch(first.stderr, /afresh/, 'a first run is not a re-emit');
  const copied = await args(1);
  assert.equal(copied.code, 0, copied.stderr);
  assert.match(copied.stderr, /re-emitted by copying/);
  assert.deepEqual(fs.readFileSync(path.join(dir, 'out.csv')), bytes);
  const copiedSummary = summaryOf();
  for (const field of ['rows', 'statuses', 'sources', 'nameMatch', 'decisions', 'decisionReasons', 'amounts']) {
    assert.deepEqual(copiedSummary[field], firstSummary[field], field);
  }
  assert.equal(copiedSummary.reverify.reused, 50);
  assert.deepEqual(copiedSummary.calls, { pl: 0, pd: 0 });
  assert.equal(copiedSummary.run.calls.pl, 50);
  const calls = sum(sandbox.stats().requests);

  // A person accepted a payee since: the run is decided again (no call), not copied.
  const db = new Database(path.join(dir, 's.sqlite'));
  const row = readCsvObjects(path.join(dir, 'out.csv'))[0]!;
  recordPersonDecision(db, { account: row['Account Number']!, ifsc: 'SBIN0001234', holder: row.beneficiary_name!, verdict: 'ACCEPTED', reviewer: 'asha', note: null, runId: 1, row: 1, via: 'import' }, Date.now() + 1 * DAY + 1000);
  db.close();
  const reviewed = await args(2);
  assert.equal(reviewed.code, 0, reviewed.stderr);
  assert.doesNotMatch(reviewed.stderr, /re-emitted by copying/);
  assert.match(reviewed.stderr, /writing the finished run's output afresh, not copying it: a reviewer decided since it was written/);
  assert.equal(readCsvObjects(path.join(dir, 'out.csv'))[0]!.decision_reason, 'REVIEW_ACCEPTED');

  // An output edited by hand is not the run's any more: written afresh.
  fs.appendFileSync(path.join(dir, 'out.csv'), 'edited,by,hand\n');
  const edited = await args(2);
  assert.doesNotMatch(edited.stderr, /re-emitted by copying/);
  assert.match(edited.stderr, /afresh, not copying it: the run's output .*out\.csv was changed, moved or removed since it was written/);
  assert.doesNotMatch(fs.readFileSync(path.join(dir, 'out.csv'), 'utf8'), /edited,by,hand/);

  // Another policy shapes the output differently.
  fs.writeFileSync(path.join(dir, 'strict.json'), '{"nameMatch": {"NO_MATCH": "REVIEW"}}');
  const strict = await args(2, '--policy', 'strict.json');
  assert.doesNotMatch(strict.stderr, /re-emitted by copying/);
  assert.match(strict.stderr, /afresh, not copying it: it would be made another way than when it was written \(another version of vas-verify, decision policy/);
  assert.equal(sum(sandbox.stats().requests), calls, 'nothing was called again so far');

  // Eight days on, every answer is past --max-age 7d: asked again, not copied.
  const later = await args(8, '--policy', 'strict.json');
  assert.doesNotMatch(later.stderr, /re-emitted by copying/);
  assert.match(later.stderr, /afresh, not copying it: answers older than --max-age are asked again/);
  assert.equal(sum(sandbox.stats().requests), calls + 50);
});

test('the emit key holds the columns as read: a build that now reads a name (or another column) the old one did not writes the output afresh instead of copying it', () => {
  const options = { outputPath: 'out.csv', columns: {} } as unknown as Parameters<typeof emitKey>[0];
  const deps = { ifscRegistry: undefined };
  const before = emitKey(options, deps, { account: 1, ifsc: 2, name: -1 });
  assert.equal(emitKey(options, deps, { account: 1, ifsc: 2, name: -1 }), before);
  assert.notEqual(emitKey(options, deps, { account: 1, ifsc: 2, name: 0, nameParts: [0, 3] }), before, 'a split name joined now');
  assert.notEqual(emitKey(options, deps, { account: 1, ifsc: 2, name: 0 }), before, 'a name taken now');
  assert.notEqual(emitKey(options, deps, { account: 4, ifsc: 2, name: -1 }), before, 'another account column');
});
