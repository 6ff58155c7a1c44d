/**
 * Bad connections and flags at the CLI: each is one clear line, no stack trace, the right exit
 * code. (Input and state errors are in bank.test.ts.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startSandbox } from '../src/sandbox/index.js';
import { runCli, tempDir } from './helpers/cli.js';
import { startTestServer } from './helpers/server.js';

function payees(dir: string): void {
  fs.writeFileSync(path.join(dir, 'p.csv'), 'name,account number,ifsc\nA,900000000011,SBIN0001234\nB,900000000012,SBIN0001234\nC,900000000013,SBIN0001234\nD,900000000014,SBIN0001234\n');
}

test('a hanging server: timeouts end the run with one clear line, exit 1, rows resumable', async (t) => {
  const url = await startTestServer(t, () => {
    // Never answers.
  });
  const dir = tempDir(t);
  payees(dir);
  const r = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--base-url', url, '--timeout', '1s', '--concurrency', '4'], { cwd: dir });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /no answer from .* in time/);
  assert.match(r.stderr, /the service looks down/);
  assert.match(r.stderr, /Resume with: vas-verify bank p\.csv/);
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  assert.ok(!fs.existsSync(path.join(dir, 'o.csv')));

  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const resumed = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--base-url', sandbox.url, '--resume'], { cwd: dir });
  assert.equal(resumed.code, 0, resumed.stderr);
});

test('rejected credentials stop the run at once with exit 1 and never print the token', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payees(dir);
  const r = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--base-url', sandbox.url], { cwd: dir, env: { VAS_TOKEN: 'wrong-token-123' } });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /refused the token.*check VAS_TOKEN/);
  assert.doesNotMatch(r.stderr + r.stdout, /wrong-token-123/);
  assert.ok((sandbox.stats().requests['account-verification-pl'] ?? 0) <= 4);
});

test('usage errors: unknown flag, missing command, help', async (t) => {
  const dir = tempDir(t);
  const unknown = await runCli(['bank', 'p.csv', '--sandbox', '--colour'], { cwd: dir });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /Unknown argument: colour/);
  const none = await runCli([], { cwd: dir });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /name a command/);
  const help = await runCli(['bank', '--help'], { cwd: dir });
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--resume/);
  assert.match(help.stdout, /Examples:/);
  // --sheet's default as the reader chooses it (README "Your file"), not "the first".
  assert.match(help.stdout.replace(/\s+/g, ' '), /--sheet Sheet of a spreadsheet input, \.xlsx, \.xls or \.ods \(default: the first sheet if it is a payee list, else the one visible sheet that is\)/);
});

test('a flag given twice, a sandbox port out of range, a --timeout under a second and an unreadable --sandbox-accounts file are usage errors (exit 2, one line), not internal errors', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payees(dir);
  fs.writeFileSync(path.join(dir, 'holders.csv'), Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 37 + 11) & 0xff)));
  const cases: Array<[string[], RegExp]> = [
    [['bank', 'p.csv', '-o', 'a.csv', '-o', 'b.csv', '--base-url', sandbox.url], /^error: -o was given 2 times \("a\.csv", "b\.csv"\): give it once$/m],
    [['bank', 'p.csv', '--mode', 'pl', '--mode', 'pd', '--base-url', sandbox.url], /^error: --mode was given 2 times \("pl", "pd"\): give it once$/m],
    [['bank', 'p.csv', '--state', 'a.sqlite', '--state', 'b.sqlite', '--base-url', sandbox.url], /^error: --state was given 2 times/m],
    [['bank', 'p.csv', '--account-col', 'x', '--account-col', 'y', '--base-url', sandbox.url], /^error: --account-col was given 2 times/m],
    // A number flag repeated with 1 (yargs adds a 1 to the value before it): --rate 50 --rate 1
    // ran at 51/s, --max-calls 1 --max-calls 1 capped at 2, --run 3 --run 1 released run 4.
    [['bank', 'p.csv', '--rate', '50', '--rate', '1', '--base-url', sandbox.url], /^error: --rate was given 2 times \("50", "1"\): give it once$/m],
    [['bank', 'p.csv', '--max-calls', '1', '--max-calls', '1', '--base-url', sandbox.url], /^error: --max-calls was given 2 times \("1", "1"\): give it once$/m],
    [['bank', 'p.csv', '--header-row=1', '--headerRow', '1', '--base-url', sandbox.url], /^error: --header-row was given 2 times \("1", "1"\): give it once$/m],
    [['report', '--state', 's.sqlite', '-o', 'r.html', '--run', '1', '--run', '1'], /^error: --run was given 2 times \("1", "1"\): give it once$/m],
    [['sandbox', '--port', '0', '--port', '1'], /^error: --port was given 2 times \("0", "1"\): give it once$/m],
    [['sandbox', '--port', '99999'], /^error: sandbox: port must be an integer 0-65535, got 99999$/m],
    [['bank', 'p.csv', '--timeout', '100ms', '--base-url', sandbox.url], /^error: --timeout must be at least 1s \(got 100ms\): the HTTP client checks it about every half second$/m],
    [['bank', 'p.csv', '-o', 'o.csv', '--sandbox', '--sandbox-accounts', 'holders.csv'], /^error: --sandbox-accounts holders\.csv: registry /m],
  ];
  for (const [args, pattern] of cases) {
    const r = await runCli(args, { cwd: dir });
    assert.equal(r.code, 2, `${args.join(' ')}\n${r.stderr}`);
    assert.match(r.stderr, pattern, args.join(' '));
    assert.doesNotMatch(r.stderr, /this is a bug|\n\s+at /, args.join(' '));
  }
  assert.equal(Object.values(sandbox.stats().requests).reduce((a, b) => a + b, 0), 0, 'no call');
  // A repeatable flag stays repeatable.
  const run = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--base-url', sandbox.url, '--quiet'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  const filtered = await runCli(['filter', 'o.csv', '--where', 'verify_status=VERIFIED', '--where', 'decision=PAY,REVIEW,HOLD'], { cwd: dir });
  assert.equal(filtered.code, 0, filtered.stderr);
});

test('a --max-spend that is not a number (5,000, ₹500, -1) is refused (exit 2, one line, no call), not run as a run with no cap', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payees(dir);
  for (const value of ['5,000', '₹500', '-1', 'NaN']) {
    const r = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--base-url', sandbox.url, '--price-pl', '1', '--max-spend', value], { cwd: dir });
    assert.equal(r.code, 2, `${value}\n${r.stderr}`);
    assert.match(r.stderr, /^error: --max-spend must be a number ≥ 0, in the unit of --price-pl and --price-pd, without commas or a currency sign \(e\.g\. --max-spend 5000\)\n$/, value);
  }
  assert.equal(Object.values(sandbox.stats().requests).reduce((a, b) => a + b, 0), 0, 'no call');
  assert.ok(!fs.existsSync(path.join(dir, 'o.csv')));
});

test('a number flag left empty by an unset shell variable is refused (exit 2, one line, no call), not taken as no cap, no rate or a price of 0', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payees(dir);
  const bank = ['bank', 'p.csv', '-o', 'o.csv', '--base-url', sandbox.url];
  const cases: Array<[string[], string]> = [
    // `--max-calls $LIMIT` with LIMIT unset, last on the line or before another flag.
    [[...bank, '--max-calls'], 'max-calls'],
    [[...bank, '--rate', '--quiet'], 'rate'],
    // `--price-pd "$PRICE"` with PRICE unset, and `--max-spend=`.
    [[...bank, '--price-pl', '', '--max-spend', '1'], 'price-pl'],
    [[...bank, '--max-spend='], 'max-spend'],
    // A number flag with a default: the bare flag was its default.
    [['sandbox', '--port'], 'port'],
    // yargs reads camelCase as the flag: `--maxCalls` with nothing after it.
    [[...bank, '--maxCalls'], 'max-calls'],
  ];
  for (const [args, flag] of cases) {
    const r = await runCli(args, { cwd: dir });
    assert.equal(r.code, 2, `${args.join(' ')}\n${r.stderr}`);
    assert.equal(r.stderr, `error: --${flag} is empty: give a number\n`, args.join(' '));
  }
  assert.equal(Object.values(sandbox.stats().requests).reduce((a, b) => a + b, 0), 0, 'no call');
  assert.ok(!fs.existsSync(path.join(dir, 'o.csv')));
  // A negative value is a value (refused by its own check), and --flag=N is given.
  const negative = await runCli([...bank, '--max-calls', '-1'], { cwd: dir });
  assert.equal(negative.code, 2);
  assert.equal(negative.stderr, 'error: --max-calls must be a whole number ≥ 0\n');
  const capped = await runCli([...bank, '--max-calls=2', '--concurrency', '1'], { cwd: dir });
  assert.equal(capped.code, 3, capped.stderr);
  assert.equal(sandbox.stats().requests['account-verification-pl'], 2);
});

test('a switch given a value other than true or false (--resume=maybe) is refused (exit 2, one line, nothing opened), not read as false', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payees(dir);
  const bank = ['bank', 'p.csv', '-o', 'o.csv', '--base-url', sandbox.url];
  const cases: Array<[string, string]> = [
    ['--resume=maybe', 'error: --resume is a switch and takes no value (got "maybe"): give --resume alone, or leave it out\n'],
    ['--retryUnconfirmed=yes', 'error: --retry-unconfirmed is a switch and takes no value (got "yes"): give --retry-unconfirmed alone, or leave it out\n'],
    ['--no-resume=1', 'error: --resume is a switch and takes no value (got "1"): give --resume alone, or leave it out\n'],
  ];
  for (const [flag, line] of cases) {
    const r = await runCli([...bank, flag], { cwd: dir });
    assert.equal(r.code, 2, `${flag}\n${r.stderr}`);
    assert.equal(r.stderr, line);
  }
  assert.equal(Object.values(sandbox.stats().requests).reduce((a, b) => a + b, 0), 0, 'no call');
  assert.ok(!fs.existsSync(path.join(dir, 'vas-verify.sqlite')), 'nothing opened');
  // =true and =false are the switch's own values.
  const resumed = await runCli([...bank, '--resume=true', '--quiet'], { cwd: dir });
  assert.ok([0, 4].includes(resumed.code ?? -1), resumed.stderr);
  assert.ok(fs.existsSync(path.join(dir, 'o.csv')));
});

test('a value outside a flag\'s choices is one line on stderr (exit 2), as a cron mail or a grep for ^error: reads it', async (t) => {
  const dir = tempDir(t);
  payees(dir);
  const cases: Array<[string[], string]> = [
    [['bank', 'p.csv', '--sandbox', '--mode', 'cheap'], 'error: Invalid values: Argument: mode, Given: "cheap", Choices: "pl", "pd", "hybrid"\n'],
    [['--log-format', 'xml', 'bank', 'p.csv', '--sandbox'], 'error: Invalid values: Argument: log-format, Given: "xml", Choices: "text", "json"\n'],
  ];
  for (const [args, line] of cases) {
    const r = await runCli(args, { cwd: dir });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr, line);
  }
  assert.ok(!fs.existsSync(path.join(dir, 'vas-verify.sqlite')), 'nothing opened');
});

test('a base URL with a ?query, a #fragment or user:password is refused (exit 2, one line naming --base-url or VAS_BASE_URL, the URL not echoed, no call); a path prefix is kept', async (t) => {
  const paths: string[] = [];
  const api = await startTestServer(t, (req, res) => {
    paths.push(req.url ?? '');
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const { accountNumber } = JSON.parse(body) as { accountNumber: string };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({
        ok: true,
        responseCode: 200,
        message: 'Transmission OK',
        body: { accountNumber, beneficiaryName: 'A', verificationStatus: 'VERIFIED', transactionRemark: null, isPennyDrop: false, ifscDetails: null },
      }));
    });
  });
  const dir = tempDir(t);
  payees(dir);
  const bank = ['bank', 'p.csv', '-o', 'o.csv', '--state', 's.sqlite'];
  const refused: Array<[string, 'flag' | 'env', RegExp]> = [
    [`${api}/api/v1?key=q-secret-1`, 'flag', /^error: --base-url must not carry a \?query \(.*\): give the scheme, host and optional path only, e\.g\. https:\/\/api\.example\.com/],
    [`${api}/api/v1#f-secret-2`, 'flag', /^error: --base-url must not carry a #fragment/],
    [`${api.replace('//', '//ops:p-secret-3@')}/api/v1`, 'flag', /^error: --base-url must not carry a user name or password .*VAS_TOKEN/],
    [`${api.replace('//', '//u-secret-4@')}`, 'env', /^error: VAS_BASE_URL must not carry a user name or password/],
    [`${api}/?`, 'env', /^error: VAS_BASE_URL must not carry a \?query/],
  ];
  for (const [url, where, message] of refused) {
    const r = where === 'flag' ? await runCli([...bank, '--base-url', url], { cwd: dir }) : await runCli(bank, { cwd: dir, env: { VAS_BASE_URL: url } });
    assert.equal(r.code, 2, `${url}: ${r.stderr}`);
    assert.match(r.stderr, message, url);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.doesNotMatch(r.stderr, /secret/, 'the URL, which may hold a secret, is not echoed');
  }
  const docs = await runCli(['docs', 'init', '--base-url', `${api}?x=1`], { cwd: dir });
  assert.equal(docs.code, 2, docs.stderr);
  assert.match(docs.stderr, /^error: --base-url must not carry a \?query/);
  assert.deepEqual(paths, [], 'no call was made');

  const prefixed = await runCli([...bank, '--base-url', `${api}/api/v1/`], { cwd: dir });
  assert.equal(prefixed.code, 0, prefixed.stderr);
  assert.ok(paths.length > 0 && paths.every((p) => p === '/api/v1/vas-api/v1/account-verification-pl'), paths.join(' '));
});

test('--base-url and --sandbox together are a usage error (exit 2, no call): the run never answers from the imitation while a real API was named', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payees(dir);
  const cases = [
    ['bank', 'p.csv', '-o', 'o.csv', '--base-url', sandbox.url, '--sandbox'],
    ['docs', 'init', '--state', 'd.sqlite', '--sandbox', '--base-url', sandbox.url],
  ];
  for (const args of cases) {
    const r = await runCli(args, { cwd: dir });
    assert.equal(r.code, 2, `${args.join(' ')}\n${r.stderr}`);
    assert.equal(r.stderr, 'error: --base-url and --sandbox name two APIs: give --base-url for the real API, or --sandbox alone for the embedded imitation\n', args.join(' '));
  }
  assert.equal(Object.values(sandbox.stats().requests).reduce((a, b) => a + b, 0), 0, 'no call');
  assert.ok(!fs.existsSync(path.join(dir, 'o.csv')));
  // VAS_BASE_URL in the environment stays overridden by --sandbox (flags beat the environment).
  const env = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--sandbox', '--quiet'], { cwd: dir, env: { VAS_BASE_URL: 'http://127.0.0.1:9' } });
  assert.equal(env.code, 0, env.stderr);
});
