/**
 * `npm run demo`: the embedded sandbox in-process, and samples/payees.csv through exactly the
 * code path of `vas-verify bank`, over two nights. The sandbox knows the sample payees'
 * bank-side names (samples/holders.csv), so the name-match verdicts show real differences.
 *
 * Night one checks last month's list (the first rows of the sample). Then the bank's holder of
 * one of its accounts changes (a hijacked payee: the fraud signal). Night two checks tonight's
 * list against the same state, finds the change, and writes the run report.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { startSandbox, loadRegistry, type RegistryEntry } from '../sandbox/index.js';
import { EXIT } from './exit.js';
import { main } from './main.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const input = path.join(root, 'samples', 'payees.csv');
const registryFile = path.join(root, 'samples', 'holders.csv');
/** Where the demo writes (VAS_DEMO_DIR, default .vas-demo/): emptied first. */
const workDir = path.resolve(process.env.VAS_DEMO_DIR ?? path.join(root, '.vas-demo'));
const lastMonth = path.join(workDir, 'last-month.csv');
const output = path.join(workDir, 'payees.verified.csv');
const state = path.join(workDir, 'demo.sqlite');
const report = path.join(workDir, 'report.html');
const rel = (file: string) => path.relative(process.cwd(), file) || file;
/** Rows of the sample that make last month's list. */
const LAST_MONTH_ROWS = 40;
/** Whom the bank names as the holder of the changed account tonight. */
const NEW_HOLDER = 'MEHUL JAYANTILAL DOSHI';

fs.rmSync(workDir, { recursive: true, force: true });
fs.mkdirSync(workDir, { recursive: true, mode: 0o700 });
const lines = fs.readFileSync(input, 'utf8').split('\n');
fs.writeFileSync(lastMonth, `${lines.slice(0, LAST_MONTH_ROWS + 1).join('\n')}\n`);
const holders = loadRegistry(fs.readFileSync(registryFile, 'utf8'));
const changed = changedAccount(lines[1] ?? '', holders);

const stop = new AbortController();
process.once('SIGINT', () => stop.abort());

process.stderr.write(`night one: ${rel(lastMonth)}\n`);
await night(holders, ['bank', rel(lastMonth), '-o', rel(path.join(workDir, 'last-month.verified.csv')), '--quiet']);
process.stderr.write(`\nthe bank now names ${NEW_HOLDER} as the holder of account ••••${changed.accountNumber.slice(-4)}\nnight two: ${rel(input)}\n`);
const tonight = holders.map((h) => (h === changed ? { ...h, name: NEW_HOLDER } : h));
const { code, stats } = await night(tonight, ['bank', rel(input), '-o', rel(output), '--summary', rel(path.join(workDir, 'summary.json')), '--report', rel(report)]);
if (fs.existsSync(output)) printSample(output);
process.stdout.write(`\nsandbox counted ${Object.values(stats.requests).reduce((a, b) => a + b, 0)} requests, ${Object.keys(stats.deposits).length} deposits tonight\n`);
process.stdout.write(`enriched CSV: ${rel(output)}  (exit code ${code}: 3 means some rows wait for a later --resume, e.g. daily-limit deferrals)\n`);
if (fs.existsSync(report)) process.stdout.write(`run report (open it in a browser): ${rel(report)}\n`);
process.exitCode = code === EXIT.incomplete ? EXIT.ok : code;

/** One night: a sandbox whose bank knows `registry`, and one `vas-verify bank` against it on the demo's state. */
async function night(registry: RegistryEntry[], args: string[]): Promise<{ code: number; stats: ReturnType<Awaited<ReturnType<typeof startSandbox>>['stats']> }> {
  const sandbox = await startSandbox({ accounts: registry, latencyMs: [20, 120] });
  try {
    const code = await main(
      // Paths relative to where the demo runs, as a person would type them (they show in the report).
      [...args, '--state', rel(state), '--base-url', sandbox.url, '--concurrency', '16'],
      {
        env: { VAS_TOKEN: 'sandbox-token', VAS_PRICE_PL: '1.5', VAS_PRICE_PD: '3' },
        stdout: (t) => process.stdout.write(t),
        stderr: (t) => process.stderr.write(t),
        stderrIsTty: process.stderr.isTTY === true,
        stopSignal: stop.signal,
      },
    );
    return { code, stats: sandbox.stats() };
  } finally {
    await sandbox.close();
  }
}

/** The registry entry of the first payee of the sample (it is in last month's list too). */
function changedAccount(firstRow: string, registry: readonly RegistryEntry[]): RegistryEntry {
  const account = firstRow.split(',')[1] ?? '';
  const entry = registry.find((h) => h.accountNumber === account);
  if (!entry) throw new Error(`demo: ${account} is not in ${registryFile}`);
  return entry;
}

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
  process.stdout.write(`${cut('Payee Name', 26)} ${cut('status', 13)} ${cut('beneficiary_name', 26)} ${cut('name_match', 23)} ${cut('decision', 8)} decision_reason\n`);
  for (const row of picked.slice(0, 14)) {
    process.stdout.write(
      `${cut(row['Payee Name'], 26)} ${cut(row.verify_status, 13)} ${cut(row.beneficiary_name, 26)} ${cut(row.name_match, 23)} ${cut(row.decision, 8)} ${cut(row.decision_reason, 24).trimEnd()}\n`,
    );
  }
}
