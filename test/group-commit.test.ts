/**
 * The group commit (src/state/group-commit.ts): a write someone awaits (a claim before its
 * request leaves) is committed at the end of its event-loop turn — or, right after another
 * commit, once the spacing has passed, together with the writes made meanwhile. Either way
 * flush() resolves only once the write is on disk, as another connection sees it.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { setImmediate as turn } from 'node:timers/promises';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import { openDatabase, WAL_CHECKPOINT_PAGES } from '../src/state/db.js';
import { BACKGROUND_START_MS, BACKSTOP_CHECKPOINT_PAGES, Checkpointer } from '../src/state/checkpointer.js';
import { GroupCommit } from '../src/state/group-commit.js';
import { tempDir } from './helpers/cli.js';

function setUp(t: TestContext, spacingMs: number) {
  const file = path.join(tempDir(t), 'state.sqlite');
  const db = openDatabase(file);
  db.exec('CREATE TABLE claims (n INTEGER)');
  const reader = new Database(file, { readonly: true });
  const seen = () => (reader.prepare('SELECT count(*) AS n FROM claims').get() as { n: number }).n;
  // The background commit of writes nobody awaits is put out of the way: only awaited commits here.
  const commits = new GroupCommit(db, undefined, { spacingMs, groupMs: 600_000 });
  const claim = (n: number) => {
    commits.begin();
    db.prepare('INSERT INTO claims (n) VALUES (?)').run(n);
  };
  t.after(() => {
    commits.close();
    reader.close();
    db.close();
  });
  return { seen, commits, claim };
}

test('a claim awaited with no commit just before is committed at the end of its turn', async (t) => {
  const { seen, commits, claim } = setUp(t, 60_000);
  claim(1);
  claim(2);
  const flushed = commits.flush();
  assert.equal(seen(), 0, 'not before the turn ends');
  await turn();
  await turn();
  assert.equal(commits.inTransaction, false);
  await flushed;
  assert.equal(seen(), 2, 'both claims of the turn in one commit');
});

test('a claim right after a commit waits for the spacing, gathering the claims made meanwhile', async (t) => {
  const { seen, commits, claim } = setUp(t, 60_000);
  claim(1);
  await commits.flush();
  claim(2);
  let settled = false;
  const second = commits.flush().then(() => (settled = true));
  await turn();
  await turn();
  claim(3);
  const third = commits.flush();
  await turn();
  assert.equal(settled, false, 'not committed within the spacing');
  assert.equal(commits.inTransaction, true);
  assert.equal(seen(), 1);
  // Closing commits what waits, and every waiter hears of it.
  commits.close();
  await second;
  await third;
  assert.equal(seen(), 3);
});

test('with the spacing past, the next awaited claim is committed at the end of its turn again', async (t) => {
  const { seen, commits, claim } = setUp(t, 0);
  for (let n = 1; n <= 3; n += 1) {
    claim(n);
    const flushed = commits.flush();
    await turn();
    await turn();
    assert.equal(commits.inTransaction, false, `claim ${n} committed at the end of its turn`);
    await flushed;
    assert.equal(seen(), n);
  }
});

/**
 * The background checkpointer (src/state/checkpointer.ts): the WAL's pages reach the database
 * file while the run's own connection never checkpoints (its threshold is far off), and the run's
 * connection checkpoints by itself again once the worker has stopped or failed.
 */
test('checkpointer: a worker copies the WAL into the state file; stopped, or failing, the run checkpoints by itself again', async (t) => {
  const file = path.join(tempDir(t), 'state.sqlite');
  const db = openDatabase(file);
  t.after(() => db.close());
  db.exec('CREATE TABLE answers (n INTEGER, text TEXT)');
  const before = fs.statSync(file).size;
  // About 90 pages in 50 commits: below the run's own threshold.
  const insert = db.prepare('INSERT INTO answers (n, text) VALUES (?, ?)');
  for (let c = 0; c < 50; c += 1) {
    db.transaction(() => {
      for (let i = 0; i < 80; i += 1) insert.run(c * 80 + i, 'x'.repeat(40) + String(c * 80 + i).padStart(8, '0'));
    })();
  }
  assert.equal(fs.statSync(file).size, before, 'the pages are in the WAL, not yet in the file');
  const checkpointer = Checkpointer.start(db, file, 20, 0)!;
  assert.ok(checkpointer);
  assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), BACKSTOP_CHECKPOINT_PAGES);
  const copied = () => fs.statSync(file).size > before + 50 * 4096;
  const deadline = Date.now() + 10_000;
  while (!copied() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.ok(copied(), `the worker copied the pages into the file (${fs.statSync(file).size} bytes)`);
  await checkpointer.stop();
  await checkpointer.stop(); // idempotent
  assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), WAL_CHECKPOINT_PAGES);
  assert.equal((db.prepare('SELECT count(*) AS n FROM answers').get() as { n: number }).n, 4000);

  // A worker that cannot open the file ends; the run's connection checkpoints every 16 MiB again.
  const failing = Checkpointer.start(db, path.join(path.dirname(file), 'gone', 'state.sqlite'), 20, 0)!;
  assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), BACKSTOP_CHECKPOINT_PAGES);
  const until = Date.now() + 10_000;
  while (db.pragma('wal_autocheckpoint', { simple: true }) !== WAL_CHECKPOINT_PAGES && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), WAL_CHECKPOINT_PAGES);
  await failing.stop(); // resolves for a worker already gone
  assert.equal(Checkpointer.start(openDatabase(':memory:'), ':memory:'), undefined, 'nothing to copy for a database in memory');

  // By default the worker starts BACKGROUND_START_MS into the run: a run stopped sooner starts none.
  const short = Checkpointer.start(db, file)!;
  assert.equal(short.started, false);
  assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), WAL_CHECKPOINT_PAGES, 'the run checkpoints by itself until the worker starts');
  await short.stop();
  await new Promise((r) => setTimeout(r, BACKGROUND_START_MS + 100));
  assert.equal(short.started, false, 'stopped before its start: no worker');
  const long = Checkpointer.start(db, file, 20, 50)!;
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(long.started, true);
  assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), BACKSTOP_CHECKPOINT_PAGES);
  await long.stop();
  assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), WAL_CHECKPOINT_PAGES);
});
