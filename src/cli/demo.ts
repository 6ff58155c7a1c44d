/**
 * `npm run demo`: the embedded sandbox in-process, and samples/payees.csv through exactly the
 * code path of `vas-verify bank`. The sandbox knows the sample payees' bank-side names
 * (samples/accounts.csv), so the name-match verdicts show real differences.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox, loadRegistry } from '../sandbox/index.js';
import { main } from './main.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const input = path.join(root, 'samples', 'payees.csv');
const registry = path.join(root, 'samples', 'accounts.csv');
const workDir = path.join(root, '.vas-demo');
const output = path.join(workDir, 'payees.verified.csv');
const state = path.join(workDir, 'demo.sqlite');

fs.rmSync(workDir, { recursive: true, force: true });
fs.mkdirSync(workDir, { recursive: true, mode: 0o700 });

const sandbox = await startSandbox({
  accounts: loadRegistry(fs.readFileSync(registry, 'utf8')),
  latencyMs: [20, 120],
});
process.stderr.write(`sandbox listening on ${sandbox.url}\n`);
const stop = new AbortController();
process.once('SIGINT', () => stop.abort());

const code = await main(
  ['bank', input, '-o', output, '--state', state, '--base-url', sandbox.url, '--concurrency', '16', '--summary', path.join(workDir, 'summary.json')],
  {
    env: { VAS_TOKEN: 'sandbox-token', VAS_PRICE_PL: '1.5', VAS_PRICE_PD: '3' },
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    stderrIsTty: process.stderr.isTTY === true,
    stopSignal: stop.signal,
  },
);
const stats = sandbox.stats();
await sandbox.close();
process.stdout.write(`\nsandbox counted ${Object.values(stats.requests).reduce((a, b) => a + b, 0)} requests, ${Object.keys(stats.deposits).length} deposits\n`);
process.stdout.write(`enriched CSV: ${path.relative(process.cwd(), output)}  (exit code ${code}: 3 means some rows wait for a later --resume, e.g. daily-limit deferrals)\n`);
process.exitCode = code === 3 ? 0 : code;
