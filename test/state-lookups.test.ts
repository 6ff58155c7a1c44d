/**
 * The store's per-payee lookups (the answer to reuse, the previous answer a change is measured
 * against, the last deposit, a payee's reviews): each seeks its index — the CAST that keeps SQLite
 * from re-planning them on every call (src/state/payee-key.ts) must not cost the index — and each
 * finds the newest record of that payee, not another payee's, whatever the insertion order.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { BankStore } from '../src/state/bank-store.js';
import { openDatabase } from '../src/state/db.js';
import type { Db, NewResult } from '../src/state/types.js';
import { tempDir } from './helpers/cli.js';

function answer(account: string, verifiedAt: number, holder: string, mode: 'pl' | 'pd' = 'pl'): NewResult {
  return {
    account, ifsc: 'HDFC0000123', mode, status: 'VERIFIED', reason: null, beneficiaryName: holder, transactionRemark: null,
    bankName: null, bankBranch: null, bankCity: null, bankDistrict: null, bankState: null, bankMicr: null, bankIso3166: null,
    bankSwift: null, bankImps: null, bankNeft: null, bankRtgs: null, bankUpi: null, requestId: `r-${account}-${verifiedAt}`, verifiedAt,
  };
}

/** A state file whose prepared statements are recorded as the store prepares them. */
function recordedStore(dir: string): { db: Db; store: BankStore; statements: string[] } {
  const db = openDatabase(path.join(dir, 'state.sqlite'));
  const statements: string[] = [];
  const prepare = db.prepare.bind(db);
  (db as { prepare: Db['prepare'] }).prepare = ((sql: string) => {
    statements.push(sql);
    return prepare(sql);
  }) as Db['prepare'];
  return { db, store: new BankStore(db, () => 1_000), statements };
}

test('the per-payee lookups seek their payee index and are not sorted', (t) => {
  const dir = tempDir(t);
  const { db, store, statements } = recordedStore(dir);
  const perPayee = statements.filter((sql) => sql.includes('CAST(? AS TEXT)'));
  // results (reuse, previous answer, previous holder, newest answer), deposits (last deposit), reviews (a payee's reviews).
  assert.equal(perPayee.length, 6, perPayee.join('\n---\n'));
  const indexes: Record<string, RegExp> = {
    results: /SEARCH results USING INDEX results_by_account \(account=\? AND ifsc=\?/,
    deposits: /SEARCH deposits USING INDEX deposits_by_payee \(account=\? AND ifsc=\?/,
    // The reviews are read with the payee name of their row (a join on run_rows by its key).
    reviews: /SEARCH (reviews|r) USING INDEX reviews_by_payee \(account=\? AND ifsc=\?/,
  };
  for (const sql of perPayee) {
    const table = /FROM (\w+)/.exec(sql)![1]!;
    const parameters = (sql.match(/\?/g) ?? []).map((_, i) => (i < 2 ? 'x' : 0));
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as { detail: string }[]).map((p) => p.detail).join('\n');
    assert.match(plan, indexes[table]!, plan);
    assert.doesNotMatch(plan, /TEMP B-TREE|SCAN/, plan);
  }
  store.close();
  db.close();
});

test('each lookup finds the newest record of its own payee', (t) => {
  const dir = tempDir(t);
  const { db, store } = recordedStore(dir);
  // Stored out of time order, beside a neighbour whose account is a prefix of this one's.
  store.insertResult(answer('50100012345', 300, 'ASHA RANI'));
  store.insertResult(answer('50100012345', 100, 'ASHA R'));
  store.insertResult(answer('5010001234', 900, 'SOMEONE ELSE'));
  const newest = store.insertResult(answer('50100012345', 500, 'ASHA RANI DEVI'));
  // Measured against the newest earlier answer (ASHA RANI at 300), not the older one (ASHA R at 100).
  assert.equal(newest.changedSince, '1970-01-01: beneficiary name "ASHA RANI" -> "ASHA RANI DEVI"');
  store.flushSync();

  assert.equal(store.findReusable('50100012345', 'HDFC0000123', 'pl', 0)?.beneficiaryName, 'ASHA RANI DEVI');
  assert.equal(store.findReusable('50100012345', 'HDFC0000123', 'pl', 501), undefined);
  // A penny-less answer never stands in for a penny-drop.
  assert.equal(store.findReusable('50100012345', 'HDFC0000123', 'pd', 0), undefined);
  assert.equal(store.findReusable('5010001234', 'HDFC0000123', 'pl', 0)?.beneficiaryName, 'SOMEONE ELSE');
  // An account written as a number elsewhere still names the same TEXT key.
  assert.equal(store.findReusable('050100012345', 'HDFC0000123', 'pl', 0), undefined);
  store.close();
  db.close();
});
