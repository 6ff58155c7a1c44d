/**
 * Characterisation of the bank run: the run function is called in-process (through the public
 * entry, src/index.ts) against the sandbox on port 0, over one fixed corpus, and what it wrote —
 * the output CSV and the returned summary — is compared byte for byte with committed golden files.
 * These pin today's behaviour so that the redesign of the run cannot change it unnoticed.
 *
 * Deterministic by construction: one request at a time (so the sandbox's seeded fault stream
 * hits the same requests every time), a fixed clock handed to the run (so `verified_at`,
 * deferral dates and `durationMs` are fixed), tiny retry sleeps. Normalised, because genuinely
 * variable: the sandbox's request ids (`sbx-` + 16 random hex digits → `<request-id>`), its address in messages (→ `<sandbox>`) and the
 * temp directory in the summary's paths (→ `<dir>`). Nothing else.
 *
 * To re-record after an intended change: UPDATE_GOLDEN=1 node --import tsx --test test/characterisation.test.ts
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BankStore, createClient, isAlive, matchNames, openDatabase, runBank, startSandbox } from '../src/index.js';
import type { BankRunOptions, BankRunSummary, SandboxOptions } from '../src/index.js';
import { tempDir } from './helpers/cli.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CORPUS = path.join(HERE, 'fixtures', 'characterisation');
const GOLDEN = path.join(HERE, 'golden', 'characterisation');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

/** 2026-03-02 09:30 UTC (15:00 IST): deferrals fall due at 2026-03-02T18:30:00.000Z. */
const T0 = Date.parse('2026-03-02T09:30:00.000Z');
const DAY = 86_400_000;
const FAULTS: SandboxOptions = { faultRate: 0.25, faults: ['429', '500', '503'], seed: 7 };
const FAST_RETRY = { baseMs: 1, capMs: 4, serverErrorMinMs: 1, serverErrorMaxMs: 4, maxAttempts: 8, maxQuotaWaits: 30 };

interface Scenario {
  input: string;
  mode: BankRunOptions['mode'];
  at: number;
  resume?: boolean;
  reuseMs?: number;
}

interface Bench {
  dir: string;
  statePath: string;
  url: string;
  /** The sandbox's clock: the scenario's, as a real API's Date agrees with a right clock (a day apart stops a penny-drop run). */
  clock: { at: number };
}

async function setup(t: TestContext, sandboxOptions: SandboxOptions = {}): Promise<Bench> {
  const clock = { at: Date.now() };
  const sandbox = await startSandbox({ port: 0, now: () => clock.at, ...sandboxOptions });
  t.after(() => sandbox.close());
  const dir = tempDir(t, 'vas-golden-');
  return { dir, statePath: path.join(dir, 'state.sqlite'), url: sandbox.url, clock };
}

/** One run, as the CLI would make it, with the clock fixed at `scenario.at`. */
async function run(bench: Bench, name: string, scenario: Scenario): Promise<void> {
  bench.clock.at = scenario.at;
  const outputPath = path.join(bench.dir, `${name}.csv`);
  const retries: Record<string, number> = {};
  const client = createClient({
    baseUrl: bench.url,
    token: 'sandbox-token',
    retry: FAST_RETRY,
    connections: 1,
    random: () => 0.5,
    onRetry: (event) => {
      const cause = event.error.status !== undefined ? String(event.error.status) : event.error.code ?? event.error.kind;
      retries[cause] = (retries[cause] ?? 0) + 1;
    },
  });
  const db = openDatabase(bench.statePath, { durable: scenario.mode !== 'pl' });
  const store = new BankStore(db, () => scenario.at);
  let summary: BankRunSummary;
  try {
    summary = await runBank(
      {
        inputPath: path.join(CORPUS, scenario.input),
        outputPath,
        mode: scenario.mode,
        resume: scenario.resume ?? false,
        retryUnconfirmed: false,
        reuseMs: scenario.reuseMs,
        concurrency: 1,
        columns: {},
        pricePl: 1,
        pricePd: 2.5,
        dryRun: false,
      },
      {
        client,
        store,
        now: () => scenario.at,
        stopSignal: new AbortController().signal,
        log: { info: () => {}, warn: () => {} },
        pid: process.pid,
        isAlive,
        matchNames,
      },
    );
  } finally {
    await client.close();
    store.close();
    db.close();
  }
  compare(`${name}.csv`, normalise(fs.readFileSync(outputPath, 'utf8'), bench.dir));
  compare(`${name}.summary.json`, normalise(`${JSON.stringify({ ...summary, retries }, null, 2)}\n`, bench.dir));
}

function normalise(text: string, dir: string): string {
  return text.replace(/sbx-[0-9a-f]{16}/g, '<request-id>').replace(/127\.0\.0\.1:\d+/g, '<sandbox>').split(dir).join('<dir>').split(CORPUS).join('<corpus>');
}

function compare(file: string, actual: string): void {
  const golden = path.join(GOLDEN, file);
  if (UPDATE) {
    fs.mkdirSync(GOLDEN, { recursive: true });
    fs.writeFileSync(golden, actual);
    return;
  }
  assert.equal(actual, fs.readFileSync(golden, 'utf8'), `${file} differs from its golden copy`);
}

test('penny-less run with injected faults, then a resume the next day, then a --reuse run of another file', async (t) => {
  const bench = await setup(t, FAULTS);
  await run(bench, 'pl-faults', { input: 'payees.csv', mode: 'pl', at: T0 });
  await run(bench, 'pl-resume-next-day', { input: 'payees.csv', mode: 'pl', at: T0 + DAY, resume: true });
  await run(bench, 'pl-reemit', { input: 'payees.csv', mode: 'pl', at: T0 + DAY + 60_000, resume: true });
  await run(bench, 'reuse-next-night', { input: 'next-night.csv', mode: 'pl', at: T0 + 2 * DAY, reuseMs: 30 * DAY });
});

test('hybrid run: penny-drop only where penny-less said NOT_VERIFIED', async (t) => {
  const bench = await setup(t);
  await run(bench, 'hybrid', { input: 'payees.csv', mode: 'hybrid', at: T0 });
});

test('penny-drop run: a lost answer is UNCONFIRMED, never re-sent', async (t) => {
  const bench = await setup(t);
  await run(bench, 'pd', { input: 'payees.csv', mode: 'pd', at: T0 });
  await run(bench, 'pd-resume', { input: 'payees.csv', mode: 'pd', at: T0 + DAY, resume: true });
});
