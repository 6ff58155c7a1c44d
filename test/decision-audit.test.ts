/**
 * The run's audit entry commits every decided row by a sha256 digest over one line per row
 * (src/pipeline/bank-run/decision-audit.ts): the lines are hashed in chunks, and the digest must
 * be the digest of all of them in file order, whatever the chunking.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { test } from 'node:test';
import { DecisionAudit } from '../src/pipeline/bank-run/decision-audit.js';
import { BankStore } from '../src/state/bank-store.js';
import { openDatabase } from '../src/state/db.js';
import { tempDir } from './helpers/cli.js';

test("the run's rowsDigest is sha256 over every decided row's line, in file order, across hashing chunks", (t) => {
  const db = openDatabase(path.join(tempDir(t), 'state.sqlite'));
  const store = new BankStore(db, () => 1_000);
  const run = store.createRun('f'.repeat(64), 'pl', 'payees.csv');
  const audit = new DecisionAudit(store, run.id);
  const lines: string[] = [];
  // 5,000 rows of about 60 characters: several chunks of the digest text.
  for (let row = 1; row <= 5_000; row += 1) {
    const account = String(100_000_000_000 + row);
    const holder = row % 7 === 0 ? null : `HOLDER ${row} नाम`;
    const decision = row % 11 === 0 ? 'HOLD' : 'PAY';
    const reason = decision === 'HOLD' ? 'NAME_MISMATCH' : 'NAME_MATCH';
    audit.note({
      row, line: row + 1, account, ifsc: 'HDFC0000123', holder, status: 'VERIFIED', reasonCode: 'OK', nameMatch: null, nameScore: null,
      requestId: null, decision: { decision, reason, payeeCheck: 'MATCH' } as never, before: undefined,
    });
    lines.push(`${row}\u001f${account}|HDFC0000123\u001f${decision}\u001f${reason}\u001f${holder ?? ''}\n`);
  }
  audit.close({});
  store.flushSync();
  const entry = db.prepare(`SELECT entry FROM audit WHERE kind = 'run'`).get() as { entry: string };
  const recorded = JSON.parse(entry.entry) as { rowsDecided: number; rowsDigest: string };
  assert.equal(recorded.rowsDecided, 5_000);
  assert.equal(recorded.rowsDigest, createHash('sha256').update(lines.join('')).digest('hex'));
  store.close();
  db.close();
});
