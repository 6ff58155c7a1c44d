/**
 * `npm run demo`: the embedded sandbox in-process, and samples/payees.csv through exactly the
 * code path of `vas-verify bank`. The sandbox knows the sample payees' bank-side names
 * (samples/holders.csv), so the name-match verdicts show real differences.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { startSandbox, loadRegistry } from '../sandbox/index.js';
import { main } from './main.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const input = path.join(root, 'samples', 'payees.csv');
const registry = path.join(root, 'samples', 'holders.csv');
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
if (fs.existsSync(output)) printSample(output);
await sandbox.close();
process.stdout.write(`\nsandbox counted ${Object.values(stats.requests).reduce((a, b) => a + b, 0)} requests, ${Object.keys(stats.deposits).length} deposits\n`);
process.stdout.write(`enriched CSV: ${path.relative(process.cwd(), output)}  (exit code ${code}: 3 means some rows wait for a later --resume, e.g. daily-limit deferrals)\n`);
process.exitCode = code === 3 ? 0 : code;

/** A few rows of the enriched CSV: one per status and per name verdict, so the columns speak. */
function printSample(file: string): void {
  const rows = parse(fs.readFileSync(file), { columns: true }) as Array<Record<string, string>>;
  const seen = new Set<string>();
  const picked = rows.filter((row) => {
    const kind = `${row.verify_status}/${row.name_match ?? ''}/${row.verify_source}`;
    if (seen.has(kind)) return false;
    seen.add(kind);
    return true;
  });
  const cut = (text: string | undefined, width: number) => {
    const value = text ?? '';
    return (value.length > width ? `${value.slice(0, width - 1)}…` : value).padEnd(width);
  };
  process.stdout.write('\nA few rows of the output:\n');
  process.stdout.write(`${cut('Payee Name', 26)} ${cut('status', 13)} ${cut('beneficiary_name', 26)} ${cut('name_match', 23)} ${cut('source', 9)} reason\n`);
  for (const row of picked.slice(0, 14)) {
    process.stdout.write(
      `${cut(row['Payee Name'], 26)} ${cut(row.verify_status, 13)} ${cut(row.beneficiary_name, 26)} ${cut(row.name_match, 23)} ${cut(row.verify_source, 9)} ${cut(row.verify_reason, 60).trimEnd()}\n`,
    );
  }
}
