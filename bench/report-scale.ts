/**
 * The run report at scale: a state file holding one run of N payees (default 1,000,000), written
 * straight into the schema (as a run leaves it: results, run_payees, each row's decision in
 * run_rows, the run's record and one activity bucket per second of a 50/s run), then
 * `writeReportFromState` timed. Prints the page's
 * size and the time; nothing is asserted. State and page go to bench/out/ (gitignored).
 *
 *   node --import tsx bench/report-scale.ts [N]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../src/state/db.js';
import { writeReportFromState } from '../src/report/index.js';

const n = Number(process.argv[2] ?? 1_000_000);
const out = path.join(path.dirname(fileURLToPath(import.meta.url)), 'out');
fs.mkdirSync(out, { recursive: true });
const statePath = path.join(out, `report-scale-${n}.sqlite`);
const reportPath = path.join(out, `report-scale-${n}.html`);
for (const suffix of ['', '-wal', '-shm']) fs.rmSync(statePath + suffix, { force: true });

const start = Date.parse('2026-01-01T18:30:00Z');
const rate = 50;
const db = openDatabase(statePath);
const built = performance.now();
db.transaction(() => {
  const runId = Number(db.prepare(`INSERT INTO runs (fingerprint, mode, input_name, status, total_rows, created_at, updated_at) VALUES ('fp', 'pl', 'payees.csv', 'open', ?, ?, ?)`).run(n, start, start + (n / rate) * 1000).lastInsertRowid);
  const result = db.prepare(`INSERT INTO results (account, ifsc, mode, status, reason, beneficiary_name, request_id, verified_at, changed_since) VALUES (?, 'SBIN0001234', 'pl', ?, ?, ?, ?, ?, ?)`);
  const key = db.prepare(`INSERT INTO run_payees (run_id, first_row, account, ifsc, status, mode, source, reason, result_id, request_id, due_at, attempts, updated_at) VALUES (?, ?, ?, 'SBIN0001234', ?, 'pl', ?, ?, ?, ?, ?, 1, ?)`);
  const decided = db.prepare(`INSERT INTO run_rows (run_id, row, line, account, ifsc, name, amount, status, reason_code, name_match, name_score, decision, decision_reason)
    VALUES (?, ?, ?, ?, 'SBIN0001234', ?, ?, ?, ?, ?, ?, ?, ?)`);
  // A payee's row: a tenth of the verified names do not match (HOLD), a twentieth are close (REVIEW).
  const row = (i: number, account: string, status: string) => {
    const verdict = status !== 'VERIFIED' ? null : i % 10 === 0 ? 'NO_MATCH' : i % 20 === 1 ? 'MODERATE_PARTIAL_MATCH' : 'DIRECT_MATCH';
    const decision = verdict === 'DIRECT_MATCH' ? 'PAY' : verdict === 'MODERATE_PARTIAL_MATCH' ? 'REVIEW' : 'HOLD';
    const reason = verdict === null ? (status === 'NOT_VERIFIED' ? 'ACCOUNT_NOT_VERIFIED' : status === 'INVALID' ? 'ACCOUNT_INVALID' : 'NOT_FINAL') : verdict === 'NO_MATCH' ? 'NAME_MISMATCH' : verdict === 'DIRECT_MATCH' ? 'NAME_MATCH' : 'NAME_CLOSE';
    decided.run(runId, i, i + 1, account, `Payee ${i}`, `${(i % 500) * 100}.50`, status, status === 'VERIFIED' ? 'OK' : 'ACCOUNT_NOT_VERIFIED', verdict, verdict === null ? null : 50, decision, reason);
  };
  for (let i = 1; i <= n; i += 1) {
    const account = String(100000000000 + i * 7);
    const at = start + Math.floor((i / rate) * 1000);
    const roll = i % 1000;
    if (roll < 10) key.run(runId, i, account, 'FAILED', 'api', `Service Not Available (HTTP 503, request id r-${i})`, null, `r-${i}`, null, at);
    else if (roll < 15) key.run(runId, i, account, 'DEFERRED', 'api', 'daily transaction limit reached', null, null, at + 86_400_000, at);
    else if (roll < 20) key.run(runId, i, account, 'UNCONFIRMED', 'api', 'no readable answer to the penny-drop request', null, `r-${i}`, null, at);
    if (roll < 20) row(i, account, roll < 10 ? 'FAILED' : roll < 15 ? 'DEFERRED' : 'UNCONFIRMED');
    else {
      const status = roll < 40 ? 'NOT_VERIFIED' : roll < 50 ? 'INVALID' : 'VERIFIED';
      const changed = roll === 999 ? 'holder changed' : null;
      const id = Number(result.run(account, status, status === 'VERIFIED' ? null : 'Account closed', `HOLDER ${i}`, `r-${i}`, at, changed).lastInsertRowid);
      key.run(runId, i, account, 'DONE', 'api', null, id, `r-${i}`, null, at);
      row(i, account, status);
    }
  }
  const seconds = Math.ceil(n / rate);
  db.prepare(`INSERT INTO run_stats (run_id, started_at, updated_at, finished_at, exit_code, resumed, duration_ms, calls_pl, spend, rows_out, statuses, name_match, avoided, retries, output_name, output_path, resume_command, tool_version, registry)
    VALUES (?, ?, ?, ?, 3, 0, ?, ?, ?, ?, '{}', '{}', '{"local":0,"duplicate":0,"reuse":0,"deferral":0,"hybrid":0}', '{"429":120,"503":900}', 'out.csv', '/nonexistent/out.csv', 'vas-verify bank payees.csv -o out.csv --resume', 'bench', 'bench')`)
    .run(runId, start, start + seconds * 1000, start + seconds * 1000, seconds * 1000, n, n * 1.5, n);
  const bucket = db.prepare(`INSERT INTO run_activity (run_id, second, calls, retries, throttled, server_errors, timeouts) VALUES (?, ?, ?, ?, ?, ?, 0)`);
  for (let s = 0; s < seconds; s += 1) bucket.run(runId, Math.floor(start / 1000) + s, rate, s % 20 === 0 ? 1 : 0, s % 200 === 0 ? 1 : 0, s % 25 === 0 ? 1 : 0);
})();
db.close();
process.stdout.write(`state of ${n.toLocaleString('en')} payees (and their rows' decisions) built in ${((performance.now() - built) / 1000).toFixed(1)} s (${Math.round(fs.statSync(statePath).size / 1e6)} MB)\n`);

const t0 = performance.now();
const { bytes } = await writeReportFromState({ statePath, reportPath, generatedAt: Date.now() });
process.stdout.write(`vas-verify report: ${((performance.now() - t0) / 1000).toFixed(2)} s, ${Math.round(bytes / 1024)} KiB\n`);
