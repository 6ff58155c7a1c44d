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
import { openDatabase } from '../src/state/db.js';
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
