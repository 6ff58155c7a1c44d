/**
 * Background checkpoints (docs/ARCHITECTURE.md, "State file"). A checkpoint copies the pages the
 * WAL holds back into the database file and syncs it. SQLite runs it inside the commit that crosses
 * `wal_autocheckpoint`, on the run's one thread: 20-35 ms, every second or two of a fast run (57 of
 * 1,800 commits of a 100,000-row run took 20 ms or more), each one holding back the answers and
 * requests of that stretch (a 1,500/s run sends them bunched past the quota's margin).
 *
 * A worker thread with its own connection copies what the WAL holds every
 * BACKGROUND_CHECKPOINT_MS (PASSIVE: it never waits for, nor blocks, the run's writes). The run's
 * connection keeps its own checkpoint, at BACKSTOP_CHECKPOINT_PAGES: by then the worker has copied
 * nearly everything, so that checkpoint is short, and it is what lets the WAL start over from its
 * beginning (a checkpoint from another connection never finds the log quiet while the run writes).
 * Measured on 100,000 rows: COMMIT time on the run's thread 2.5 s -> 1.3 s, commits of 20 ms or
 * more 57 -> 11.
 *
 * Nothing depends on the worker: if it cannot start, or its checkpoints keep failing, the run's
 * connection goes back to checkpointing at WAL_CHECKPOINT_PAGES by itself.
 *
 * The worker starts BACKGROUND_START_MS into the run, not at once: starting it (a thread, an
 * isolate, better-sqlite3 loaded again) costs ~160 ms of CPU, most of a run of a few payees, and
 * a run that ends sooner writes far less than WAL_CHECKPOINT_PAGES, which its connection copies
 * once as it closes.
 */
import { createRequire } from 'node:module';
import { resolve as resolvePath } from 'node:path';
import { Worker } from 'node:worker_threads';
import { WAL_CHECKPOINT_PAGES } from './db.js';
import type { Db } from './types.js';

/** How often the worker copies the WAL into the database file. */
export const BACKGROUND_CHECKPOINT_MS = 200;
/** How long into the run the worker starts (a run that ends sooner needs none). */
export const BACKGROUND_START_MS = 500;
/** The run's own checkpoint while the worker runs (16,384 × 4 KiB = 64 MiB of WAL). */
export const BACKSTOP_CHECKPOINT_PAGES = 16_384;
/** Longest the worker is given to finish its checkpoint and close when the run ends. */
const STOP_TIMEOUT_MS = 5_000;

// CommonJS, evaluated in the worker: nothing of ours is loaded there, only better-sqlite3.
// A checkpoint that fails now and then (busy) is tried again next time; MAX_FAILURES in a row end
// the worker, and the run's connection checkpoints by itself again.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
let failures = 0;
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    failures = 0;
  } catch (error) {
    failures += 1;
    if (failures >= workerData.maxFailures) throw error;
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  try {
    checkpoint();
  } finally {
    db.close();
    parentPort.close();
  }
});
`;
/** Checkpoints failed in a row before the worker gives up (the run's own checkpoint is still there). */
const MAX_FAILURES = 10;

export class Checkpointer {
  private readonly db: Db;
  private readonly path: string;
  private readonly intervalMs: number;
  private worker: Worker | undefined;
  private pending: NodeJS.Timeout | undefined;
  private stopped: Promise<void> | undefined;
  private exited = false;

  private constructor(db: Db, path: string, intervalMs: number) {
    this.db = db;
    this.path = path;
    this.intervalMs = intervalMs;
  }

  /**
   * Starts checkpointing the state file at `path` (opened as `db`) in the background, `delayMs`
   * from now (BACKGROUND_START_MS; 0: at once); undefined for a database in memory.
   * `intervalMs`: BACKGROUND_CHECKPOINT_MS unless given (tests).
   */
  static start(db: Db, path: string, intervalMs = BACKGROUND_CHECKPOINT_MS, delayMs = BACKGROUND_START_MS): Checkpointer | undefined {
    if (path === ':memory:' || db.memory || db.readonly) return undefined;
    const checkpointer = new Checkpointer(db, path, intervalMs);
    if (delayMs <= 0) checkpointer.startWorker();
    else checkpointer.pending = setTimeout(() => checkpointer.startWorker(), delayMs).unref();
    return checkpointer;
  }

  /** Whether the worker thread was started (tests). */
  get started(): boolean {
    return this.worker !== undefined;
  }

  private startWorker(): void {
    this.pending = undefined;
    if (this.stopped !== undefined || !this.db.open) return;
    let worker: Worker;
    try {
      const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
      // The file the run's connection opened (openDatabase checked it is no link), by its full path.
      worker = new Worker(WORKER, {
        eval: true,
        workerData: { sqlite, path: resolvePath(this.path), intervalMs: this.intervalMs, maxFailures: MAX_FAILURES },
        resourceLimits: { maxOldGenerationSizeMb: 32 },
      });
    } catch {
      // No worker (no room for a thread): the run checkpoints by itself, as without one.
      return;
    }
    worker.unref();
    this.worker = worker;
    this.db.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
    // A worker that fails leaves the checkpoints to the run's connection, as without it.
    worker.once('error', () => this.selfCheckpoint());
    worker.once('exit', () => {
      this.exited = true;
      this.selfCheckpoint();
    });
  }

  /** Lets the worker finish its checkpoint and close its connection; the run's own checkpoints as before. */
  stop(): Promise<void> {
    this.stopped ??= new Promise<void>((resolve) => {
      clearTimeout(this.pending);
      const worker = this.worker;
      if (worker === undefined || this.exited) return resolve();
      const timer = setTimeout(() => void worker.terminate(), STOP_TIMEOUT_MS);
      worker.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      worker.postMessage('stop');
    });
    return this.stopped;
  }

  private selfCheckpoint(): void {
    try {
      if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
    } catch {
      // The connection is closing: nothing to set.
    }
  }
}
