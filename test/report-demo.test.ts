/**
 * `npm run demo` (src/cli/demo.ts) over two nights: the bank's holder of one account changes
 * between them, and the report of the second night shows it (the fraud signal). The demo writes
 * where VAS_DEMO_DIR says and prints the report's path.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, tempDir } from './helpers/cli.js';
import { spawn } from 'node:child_process';

test('npm run demo writes a report that shows a changed holder, and prints its path', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), path.join(ROOT, 'src', 'cli', 'demo.ts')], {
    cwd: ROOT, env: { ...process.env, VAS_DEMO_DIR: dir }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, stderr);
  const shown = /run report \(open it in a browser\): (.+)/.exec(stdout)?.[1];
  assert.ok(shown, stdout);
  const report = path.resolve(ROOT, shown.trim());
  assert.equal(report, path.join(dir, 'report.html'));
  assert.equal(fs.statSync(report).mode & 0o777, 0o600);
  const html = fs.readFileSync(report, 'utf8');
  assert.match(html, /data-testid="changed-count">1</);
  assert.match(html, /A CHANDRA TIWARI/);
  assert.match(html, /MEHUL JAYANTILAL DOSHI/);
  assert.match(html, /data-testid="exit-code">3</);
  assert.match(stderr, /night two/);
});
