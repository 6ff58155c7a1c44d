/**
 * A state file written by an earlier schema carries its unfinished run across an upgrade: the
 * real CLI resumes it, calls only what was left, and re-emits what the old file already knew.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startSandbox } from '../src/sandbox/index.js';
import { APPLICATION_ID, SCHEMA_VERSION } from '../src/state/db.js';
import { MIGRATIONS } from '../src/state/migrations.js';
import { inspectInput } from '../src/input/read-csv.js';
import { readCsvObjects, runCli, tempDir } from './helpers/cli.js';

/** A state file as schema `version` left it (the steps up to it, nothing after). */
function stateAtVersion(file: string, version: number): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`application_id = ${APPLICATION_ID}`);
  for (let v = 0; v < version; v += 1) db.exec(MIGRATIONS[v]!);
  db.pragma(`user_version = ${version}`);
  return db;
}

test('an unfinished run in a schema-3 state file is resumed after the upgrade to run_keys in file order', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const input = path.join(dir, 'payees.csv');
  fs.writeFileSync(
    input,
    [
      'Name,Account,IFSC',
      'Asha Rao,100000000012,SBIN0001234',
      'Bina Shah,100000000013,SBIN0001234',
      'Asha Rao,100000000012,SBIN0001234',
      'Chetan Das,100000000014,HDFC0000123',
      'Deepa Iyer,100000000015,HDFC0000123',
    ].join('\n') + '\n',
  );
  const { fingerprint } = await inspectInput(input);
  const statePath = path.join(dir, 'state.sqlite');
  const old = stateAtVersion(statePath, 3);
  const at = Date.now() - 60_000;
  old.prepare(`INSERT INTO runs (id, fingerprint, mode, input_name, status, created_at, updated_at) VALUES (1, ?, 'pl', ?, 'open', ?, ?)`).run(fingerprint, input, at, at);
  const resultId = Number(
    old
      .prepare(
        `INSERT INTO results (account, ifsc, mode, status, beneficiary_name, bank_name, request_id, verified_at)
         VALUES ('100000000012', 'SBIN0001234', 'pl', 'VERIFIED', 'ASHA RAO FROM BEFORE', 'State Bank of India', 'req-old-1', ?)`,
      )
      .run(at).lastInsertRowid,
  );
  const key = old.prepare(
    `INSERT INTO run_keys (run_id, key, account, ifsc, first_idx, status, phase, source, result_id, request_id, attempts, updated_at)
     VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  key.run('100000000012|SBIN0001234', '100000000012', 'SBIN0001234', 1, 'DONE', 'pl', 'api', resultId, 'req-old-1', 1, at);
  key.run('100000000013|SBIN0001234', '100000000013', 'SBIN0001234', 2, 'PENDING', null, null, null, null, 0, at);
  key.run('100000000014|HDFC0000123', '100000000014', 'HDFC0000123', 4, 'IN_FLIGHT', 'pl', null, null, null, 1, at);
  old.close();

  const r = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--state', 'state.sqlite', '--base-url', sandbox.url, '--resume'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  // Bina (pending), Chetan (in flight when the old run stopped) and Deepa (never reached): Asha is known.
  assert.equal(sandbox.stats().requests['account-verification-pl'], 3);
  const rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.deepEqual(rows.map((row) => row.Name), ['Asha Rao', 'Bina Shah', 'Asha Rao', 'Chetan Das', 'Deepa Iyer']);
  assert.equal(rows[0]!.beneficiary_name, 'ASHA RAO FROM BEFORE');
  assert.equal(rows[0]!.verify_request_id, 'req-old-1');
  assert.equal(rows[0]!.verify_source, 'api');
  assert.equal(rows[2]!.beneficiary_name, 'ASHA RAO FROM BEFORE');
  assert.equal(rows[2]!.verify_source, 'duplicate');
  for (const row of rows.slice(1)) assert.equal(row.verify_status, 'VERIFIED');

  const db = new Database(statePath, { readonly: true });
  t.after(() => db.close());
  assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
  // Schema 6 gave the table and its columns the glossary's words: run_payees, first_row, mode.
  const columns = (db.prepare('PRAGMA table_info(run_payees)').all() as Array<{ name: string; pk: number }>);
  assert.ok(!columns.some((c) => c.name === 'key'), 'the key text column is gone');
  assert.ok(columns.some((c) => c.name === 'mode') && !columns.some((c) => c.name === 'phase'));
  assert.deepEqual(columns.filter((c) => c.pk > 0).map((c) => c.name), ['run_id', 'first_row']);
  const keys = db.prepare('SELECT first_row AS idx, status, attempts FROM run_payees WHERE run_id = 1 ORDER BY first_row').all();
  assert.deepEqual(keys, [
    { idx: 1, status: 'DONE', attempts: 1 },
    { idx: 2, status: 'DONE', attempts: 1 },
    { idx: 4, status: 'DONE', attempts: 2 },
    { idx: 5, status: 'DONE', attempts: 1 },
  ]);
  assert.equal((db.prepare(`SELECT status FROM runs WHERE id = 1`).get() as { status: string }).status, 'complete');
});

test('a state file in use by a live run of the older version is not upgraded under it: exit 1, naming the holder', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'payees.csv'), 'Name,Account,IFSC\nAsha Rao,100000000012,SBIN0001234\n');
  const statePath = path.join(dir, 'state.sqlite');
  const old = stateAtVersion(statePath, 3);
  // This test process plays the older run: alive, on this host, heartbeat fresh.
  old.prepare('INSERT INTO run_lock (id, pid, host, started_at, heartbeat_at) VALUES (1, ?, ?, ?, ?)').run(process.pid, os.hostname(), Date.now() - 5_000, Date.now());
  old.close();
  const r = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--state', 'state.sqlite', '--sandbox'], { cwd: dir });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, new RegExp(`another vas-verify run \\(pid ${process.pid} on .*must upgrade first: wait for it to finish`));
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.ok(!fs.existsSync(path.join(dir, 'out.csv')));
  const db = new Database(statePath, { readonly: true });
  t.after(() => db.close());
  assert.equal(db.pragma('user_version', { simple: true }), 3, 'left as it was');

  // Once that run is gone (its pid no longer exists), the upgrade goes ahead.
  const gone = new Database(statePath);
  gone.prepare('UPDATE run_lock SET pid = ?').run(2 ** 22 + 12345);
  gone.close();
  const again = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--state', 'state.sqlite', '--sandbox'], { cwd: dir });
  assert.equal(again.code, 0, again.stderr);
  assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
});
