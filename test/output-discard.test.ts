/**
 * A discarded output (a run stopped by a signal, an input that changed, a failed write) settles
 * cleanly whatever writes are pending, in every sink (an .xlsx copy of an .xlsx input, a new
 * .xlsx, a CSV): its temporary file removed, nothing thrown, no error left unheard to end the
 * process. Before, an .xlsx copy discarded while its file had writes in progress crashed the
 * process with ERR_STREAM_DESTROYED (about 3 stops in 10 of an .xlsx → .xlsx run), and a CSV's
 * pending write never settled.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { startSandbox } from '../src/sandbox/index.js';
import { openOutput } from '../src/output/sink.js';
import { spawnCli, tempDir, waitFor } from './helpers/cli.js';

const NOTES = Array.from({ length: 12 }, (_, i) => `Note ${i}`);
const HEADER = ['Payee Name', 'Account No', 'IFSC Code', 'Amount', ...NOTES];
const TOOL = Array.from({ length: 24 }, (_, i) => `tool_${i}`);

/** Payee rows with wide notes of their own, so that the workbook's parts take many writes to copy. */
function payeeRows(count: number): string[][] {
  return Array.from({ length: count }, (_, i) => [
    `Payee ${i}`, String(100_000_000_001 + i * 7), 'SBIN0000001', String(100 + i),
    ...NOTES.map((_, n) => `note ${n} of payee ${i}: ${'remark '.repeat(6)}`),
  ]);
}

async function writePayeeWorkbook(file: string, count: number): Promise<void> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Payees');
  sheet.addRow(HEADER);
  for (const row of payeeRows(count)) sheet.addRow(row);
  await book.xlsx.writeFile(file);
}

/** Errors nobody listened to, while `task` runs and a moment after it. */
async function unheardErrors(task: () => Promise<void>): Promise<Error[]> {
  const seen: Error[] = [];
  const listener = (error: Error) => seen.push(error);
  process.on('uncaughtException', listener);
  process.on('unhandledRejection', listener);
  try {
    await task();
    await new Promise((r) => setTimeout(r, 100));
  } finally {
    process.off('uncaughtException', listener);
    process.off('unhandledRejection', listener);
  }
  return seen;
}

/** Settles within `ms` or fails naming `what`. */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

test('discard() while writes are pending settles, removes the temporary file and leaves no unheard error, in every sink', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const input = path.join(dir, 'in.xlsx');
  await writePayeeWorkbook(input, 600);
  const rows = payeeRows(600).map((row) => [...row, ...TOOL.map(() => 'x'.repeat(40))]);
  const sinks = [
    { name: 'xlsx copy', file: 'out.xlsx', source: { xlsxSource: { file: input, sheet: 'Payees', spoolDir: dir } } },
    { name: 'new xlsx', file: 'new.xlsx', source: {} },
    { name: 'csv', file: 'out.csv', source: {} },
  ];
  for (const sink of sinks) {
    const errors = await unheardErrors(async () => {
      // Discarded after 0 to 9 ms and 0 to 29 turns of the event loop: at the start, while parts are copied, while rows are.
      for (let turns = 0; turns < 30; turns += 1) {
        const output = openOutput(path.join(dir, sink.file), [...HEADER, ...TOOL], () => true, [], sink.source);
        let stopped = false;
        // As the ordered writer writes: one batch at a time, the next once the last resolved.
        const writing = (async () => {
          for (let batch = 0; !stopped; batch = (batch + 1) % 5) {
            await output.writeRows(rows.slice(batch * 120, batch * 120 + 120));
            // exceljs takes rows synchronously: without a turn this loop would never let discard() in.
            if (sink.name === 'new xlsx') await new Promise((r) => setImmediate(r));
          }
        })().catch(() => undefined);
        await new Promise((r) => setTimeout(r, turns % 10));
        for (let k = 0; k < turns; k += 1) await new Promise((r) => setImmediate(r));
        stopped = true;
        await within(10_000, `${sink.name}: discard() after ${turns} turn(s)`, output.discard());
        await within(10_000, `${sink.name}: the write pending at discard() after ${turns} turn(s)`, writing);
        await within(10_000, `${sink.name}: a write after discard()`, output.writeRows(rows.slice(0, 10)).catch(() => undefined));
        assert.deepEqual(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp')), [], `${sink.name}: no temporary file after discard() after ${turns} turn(s)`);
      }
    });
    assert.deepEqual(errors.map((e) => e.message), [], `${sink.name}: no unheard error`);
  }
  assert.ok(!fs.existsSync(path.join(dir, 'out.xlsx')) && !fs.existsSync(path.join(dir, 'out.csv')), 'nothing presented');
});

test('an .xlsx → .xlsx run stopped by SIGTERM or SIGINT exits 3 with the resume command, no stack, no temporary file', { timeout: 180_000 }, async (t) => {
  const sandbox = await startSandbox({ latencyMs: [200, 1500] });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  await writePayeeWorkbook(path.join(dir, 'in.xlsx'), 600);
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const state = `s${attempt}.sqlite`;
    const run = spawnCli(['bank', 'in.xlsx', '-o', 'out.xlsx', '--name-col', 'Payee Name', '--base-url', sandbox.url, '--concurrency', '32', '--state', state], { cwd: dir });
    t.after(() => run.child.kill('SIGKILL'));
    // Stopped once answers are being written, at a different moment each time.
    await waitFor(() => fs.existsSync(path.join(dir, state)) && fs.readdirSync(dir).some((f) => f.startsWith('.out.xlsx.')), 30_000, 'the run to start writing');
    await new Promise((r) => setTimeout(r, 400 + attempt * 170));
    const signal = attempt % 2 === 0 ? 'SIGTERM' : 'SIGINT';
    run.child.kill(signal);
    const r = await run.result;
    const what = `${signal} #${attempt}\n${r.stderr}`;
    assert.equal(r.code, 3, what);
    assert.match(r.stderr, /stopped by signal.*Resume with: vas-verify bank in\.xlsx -o out\.xlsx/, what);
    assert.doesNotMatch(r.stderr, /\n\s+at |ERR_STREAM|this is a bug/, what);
    const left = fs.readdirSync(dir).filter((f) => f.endsWith('.tmp') || f.endsWith('-wal') || f.endsWith('-shm'));
    assert.deepEqual(left, [], `${what}\nno temporary file, the state closed`);
    assert.ok(!fs.existsSync(path.join(dir, 'out.xlsx')), 'an interrupted run writes no output');
  }
});
