/**
 * A state file's write-ahead log read while another process writes it (src/state/integrity.ts,
 * walProblem). After a checkpoint, SQLite restarts the log in place: new frames overwrite old
 * ones at the start of the file, whose size and header then stay the same while it is read. A read
 * that took frame k as it was and frames k+1, k+2 as rewritten saw "damaged before its last
 * frames", and a second run on a busy state was told to restore it from a backup (exit 2) instead
 * of being refused as a second run. A problem now counts only when the log reads the same twice.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../src/state/db.js';
import { walProblem } from '../src/state/integrity.js';
import { createRequire } from 'node:module';
import { tempDir } from './helpers/cli.js';

const require = createRequire(import.meta.url);

// A writer in its own process: small commits, and a second connection checkpointing them, so the
// log restarts in place again and again.
const WRITER = `
const Database = require(process.argv[1]);
const db = new Database(process.argv[2]);
db.pragma('journal_mode = WAL');
db.pragma('wal_autocheckpoint = 0');
const other = new Database(process.argv[2]);
const insert = db.prepare('INSERT INTO t (text) VALUES (?)');
const end = Date.now() + Number(process.argv[3]);
let n = 0;
while (Date.now() < end) {
  db.transaction(() => { for (let i = 0; i < 3; i += 1) insert.run('x'.repeat(3000) + n++); })();
  if (n % 30 === 0) other.pragma('wal_checkpoint(PASSIVE)');
}
process.stdout.write(String(n));
`;

test('a log another process keeps writing and restarting in place is never called damaged', { timeout: 60_000 }, async (t) => {
  const file = path.join(tempDir(t), 'state.sqlite');
  const db = openDatabase(file);
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, text TEXT)');
  db.close();
  const sqlite = require.resolve('better-sqlite3');
  const writer = spawn(process.execPath, ['-e', WRITER, sqlite, file, '8000'], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => writer.kill('SIGKILL'));
  let written = '';
  writer.stdout.on('data', (d: Buffer) => (written += d.toString()));
  const done = new Promise<void>((resolve) => writer.on('close', () => resolve()));
  const problems = new Map<string, number>();
  let reads = 0;
  let finished = false;
  void done.then(() => (finished = true));
  while (!finished) {
    if (fs.existsSync(`${file}-wal`)) {
      const problem = walProblem(`${file}-wal`);
      reads += 1;
      if (problem !== undefined) problems.set(problem, (problems.get(problem) ?? 0) + 1);
    }
    await new Promise((r) => setImmediate(r));
  }
  t.diagnostic(`${reads} reads of a live log, ${written} rows written`);
  assert.ok(reads > 100, `the log was read while it was written (${reads} reads)`);
  assert.deepEqual([...problems.entries()], [], 'no read of the live log found it damaged');
});
