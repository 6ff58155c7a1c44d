import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { inspectInput, utf8Boundary } from '../src/input/read-csv.js';
import { inspectInBackground, inspectsInline, INLINE_INSPECT_BYTES } from '../src/input/inspect.js';
import { tempDir } from './helpers/cli.js';

test('utf8Boundary leaves a character split at the end of a chunk for the next one', () => {
  const euro = Buffer.from('€', 'utf8'); // e2 82 ac
  assert.equal(utf8Boundary(Buffer.from('abc')), 3);
  assert.equal(utf8Boundary(Buffer.concat([Buffer.from('ab'), euro])), 5);
  assert.equal(utf8Boundary(Buffer.concat([Buffer.from('ab'), euro.subarray(0, 1)])), 2);
  assert.equal(utf8Boundary(Buffer.concat([Buffer.from('ab'), euro.subarray(0, 2)])), 2);
  assert.equal(utf8Boundary(Buffer.from([0x61, 0xf0, 0x9f, 0x98])), 1, 'a 4-byte emoji cut after 3 bytes');
});

test('inspectInput: UTF-8 across 1 MiB chunk boundaries, Latin-1, UTF-16LE, fingerprint and line estimate', async (t) => {
  const dir = tempDir(t);
  // Multi-byte names straddle the read chunks: still UTF-8.
  const row = 'Ramesh Kumar ₹ अजय,123456789012,SBIN0001234\n';
  const big = 'name,account,ifsc\n' + row.repeat(Math.ceil((3 << 20) / Buffer.byteLength(row)));
  fs.writeFileSync(path.join(dir, 'utf8.csv'), big);
  const utf8 = await inspectInput(path.join(dir, 'utf8.csv'));
  assert.equal(utf8.encoding, 'utf8');
  assert.equal(utf8.lines, big.split('\n').length);
  assert.match(utf8.fingerprint, /^[0-9a-f]{64}$/);

  // One stray Latin-1 byte in a UTF-8 file (issue #26): still UTF-8, the byte replaced, its line named.
  fs.writeFileSync(path.join(dir, 'stray.csv'), Buffer.concat([Buffer.from(big), Buffer.from('Jos\xe9,123456789012,SBIN0001234\n', 'latin1')]));
  const stray = await inspectInput(path.join(dir, 'stray.csv'));
  assert.equal(stray.encoding, 'utf8');
  assert.deepEqual(stray.invalidUtf8, { bytes: 1, lines: [big.split('\n').length] });
  // A file with no UTF-8 in it at all is Windows-1252 (what Excel on Windows writes).
  fs.writeFileSync(path.join(dir, 'latin1.csv'), Buffer.from('name,account,ifsc\nJos\xe9,123456789012,SBIN0001234\nRen\xe9e M\xfcller,223456789012,SBIN0001234\n', 'latin1'));
  const latin1 = await inspectInput(path.join(dir, 'latin1.csv'));
  assert.equal(latin1.encoding, 'windows-1252');
  assert.equal(latin1.invalidUtf8, undefined);

  fs.writeFileSync(path.join(dir, 'utf16.csv'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('name,account,ifsc\n', 'utf16le')]));
  assert.equal((await inspectInput(path.join(dir, 'utf16.csv'))).encoding, 'utf16le');

  fs.writeFileSync(path.join(dir, 'same.csv'), big);
  assert.equal((await inspectInput(path.join(dir, 'same.csv'))).fingerprint, utf8.fingerprint, 'content, not name, identifies a run');
});

test('inspectInBackground answers what inspectInput answers, from its worker thread', async (t) => {
  const dir = tempDir(t);
  const files = {
    utf8: 'name,account,ifsc\nअजय,123456789012,SBIN0001234\n',
    latin1: Buffer.from('name,account,ifsc\nJos\xe9,123456789012,SBIN0001234\n', 'latin1'),
    empty: '',
    binary: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00, 0x00, 0x00, 0x21, 0x00]),
  };
  const fallbacks: unknown[] = [];
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, `${name}.csv`);
    fs.writeFileSync(file, content);
    const here = await inspectInput(file).catch((error: Error) => ({ error: `${error.name}: ${error.message}` }));
    const there = await inspectInBackground(file, (why) => fallbacks.push(why), -1).catch((error: Error) => ({ error: `${error.name}: ${error.message}` }));
    assert.deepEqual(there, here, name);
  }
  const missing = path.join(dir, 'missing.csv');
  await assert.rejects(inspectInBackground(missing, (why) => fallbacks.push(why), -1), { name: 'InputError', message: `input file ${missing} does not exist` });
  assert.deepEqual(fallbacks, [], 'every answer came from the worker thread');
  // A small file is inspected on this thread (no worker to start): the same answers.
  for (const name of Object.keys(files)) {
    const file = path.join(dir, `${name}.csv`);
    const here = await inspectInput(file).catch((error: Error) => ({ error: `${error.name}: ${error.message}` }));
    assert.deepEqual(await inspectInBackground(file).catch((error: Error) => ({ error: `${error.name}: ${error.message}` })), here, `${name}, inline`);
  }
  await assert.rejects(inspectInBackground(missing), { name: 'InputError', message: `input file ${missing} does not exist` });
  // Which way: a file up to INLINE_INSPECT_BYTES here, a larger one (or anything not a regular file) on the worker.
  const utf8 = path.join(dir, 'utf8.csv');
  assert.equal(inspectsInline(utf8), true);
  assert.equal(inspectsInline(utf8, fs.statSync(utf8).size - 1), false);
  assert.equal(inspectsInline(missing), false);
  assert.equal(inspectsInline(dir), false, 'a directory');
  assert.equal(INLINE_INSPECT_BYTES, 4 * 1024 * 1024);
});
