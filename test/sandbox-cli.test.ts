/**
 * `vas-verify sandbox` as users start it: a real process, its registry from --accounts, the
 * listening line on stdout, a clean exit on SIGTERM — and `bank` run against it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readCsvObjects, runCli, spawnCli, tempDir, waitFor } from './helpers/cli.js';

test('vas-verify sandbox --accounts serves its registry; bank verdicts follow the holder names', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(
    path.join(dir, 'registry.csv'),
    ['accountNumber,ifsc,name,status', '870000000011,SBIN0001234,SMT LAXMI DEVI,VERIFIED', '870000000012,SBIN0001234,ARUN KUMAR VERMA,VERIFIED', '870000000013,SBIN0001234,KAVITA RAO,NOT_VERIFIED'].join('\n') + '\n',
  );
  fs.writeFileSync(
    path.join(dir, 'payees.csv'),
    ['Payee Name,Account No,IFSC Code', 'Lakshmi Devi,870000000011,SBIN0001234', 'Vikram Singh,870000000012,SBIN0001234', 'Kavita Rao,870000000013,SBIN0001234'].join('\n') + '\n',
  );
  const server = spawnCli(['sandbox', '--port', '0', '--accounts', 'registry.csv', '--latency', '1-5', '--seed', '7'], { cwd: dir });
  t.after(() => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  });
  await waitFor(() => /sandbox listening on http:\/\/127\.0\.0\.1:\d+/.test(server.stdout()), 20_000, 'the sandbox to listen');
  const url = /sandbox listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(server.stdout())![1]!;

  const run = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--base-url', url], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  const rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.equal(rows[0]!.beneficiary_name, 'SMT LAXMI DEVI');
  // Laxmi / Lakshmi is one name, but a different letter is at most GOOD (issue #28).
  assert.equal(rows[0]!.name_match, 'GOOD_PARTIAL_MATCH', 'honorific and Laxmi/Lakshmi');
  assert.equal(rows[1]!.name_match, 'NO_MATCH', 'another person holds the account');
  assert.equal(rows[2]!.verify_status, 'NOT_VERIFIED');

  const stats = (await (await fetch(`${url}/__sandbox/stats`)).json()) as { requests: Record<string, number> };
  assert.equal(stats.requests['account-verification-pl'], 3);
  server.child.kill('SIGTERM');
  const exit = await server.result;
  assert.equal(exit.code, 0, exit.stderr);
});

test('vas-verify sandbox: bad options are usage errors (exit 2, one line)', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'short.csv'), 'accountNumber,ifsc,name\r\n12345,SBIN0001234,RAVI KUMAR\r\n');
  for (const [args, pattern] of [
    [['sandbox', '--port', '0', '--fault-rate', '0.5', '--faults', '429,boom'], /boom/],
    // Kinds without a rate would inject nothing, silently.
    [['sandbox', '--port', '0', '--faults', 'reset'], /^error: --faults chooses the kinds of fault but injects none without --fault-rate P/m],
    [['sandbox', '--port', '0', '--latency', 'slow'], /latency/i],
    [['sandbox', '--port', '0', '--accounts', 'missing.csv'], /missing\.csv/],
    // A bad row names the flag, the file and the line.
    [['sandbox', '--port', '0', '--accounts', 'short.csv'], /^error: --accounts short\.csv: registry line 2: account number "12345" must be 9 to 18 digits$/m],
  ] as const) {
    const r = await runCli(args, { cwd: dir });
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, pattern);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  }
});
