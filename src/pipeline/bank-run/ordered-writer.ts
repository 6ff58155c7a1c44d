/**
 * Stage 4 of the bank run (docs/ARCHITECTURE.md, "The bank run"): rows leave in input order once
 * their payee is answered, in batches (the answers of WRITE_GATHER_MS together). It also bounds
 * what is read ahead of the oldest unwritten row, so memory does not grow with the file.
 */
import type { OutputSink } from '../../output/sink.js';
import type { RowOutcome } from '../columns.js';
import { SignalEvent, type StopControl } from './stop.js';
import type { Slot } from './types.js';

/**
 * Rows read ahead of the oldest unwritten row; bounds memory whatever the file size. At least
 * twice the requests in flight (a run may give more with --concurrency), so the rows waiting
 * behind one slow answer do not cap the calls in flight.
 */
export const READ_AHEAD_ROWS = 4_096;
/**
 * With --rate R, at least R × this many rows: the oldest row may wait for a 429's Retry-After
 * (a second or two), its retry's turn and a slow answer again, and the rows read behind it must
 * cover that wait or the reader stops and the rate falls to nothing meanwhile (a 1,500/s run
 * with 1 s answers sent nothing for a second after a single 429 at 4,096 rows).
 */
export const READ_AHEAD_SECONDS = 8;
/** …and their bytes, so that a file of huge fields cannot fill memory either. */
export const READ_AHEAD_BYTES = 16 * 1024 * 1024;
/**
 * Most rows handed to the output in one write. Each row is finished (name verdict, decision,
 * state) in the batch's one synchronous stretch; at 512 that stretch reached 25–30 ms, and after a
 * slow answer released a backlog, a run at 1,500/s sent its next requests bunched past the
 * quota's 30 ms margin (429s). 128 keeps a stretch near 6 ms at the same cost per row.
 */
export const WRITE_BATCH_ROWS = 128;
/**
 * How long answered rows gather before the writer finishes and writes them. Finishing each answer's
 * row at once made most batches one or two rows at --concurrency 64 (answers arrive a few per
 * event-loop turn), and every batch paid its own write to the file, await and turn: 100,000 rows
 * took 16.0 s of CPU (V8's default heap), 13.4 s with the rows of 5 ms gathered (10 ms and 50 ms:
 * no better). A row leaves this much later, which nobody sees: the output is renamed into place
 * only at the end.
 */
export const WRITE_GATHER_MS = 5;
/** Written rows are dropped from the front of the queue once this many have piled up. */
const COMPACT_AFTER_ROWS = 8_192;

/** Turns a row that leaves into its output record (undefined when nothing is written: a dry run). */
export type FinishRow = (slot: Slot, outcome: RowOutcome) => string[] | undefined;

export interface WriterOptions {
  /** The most requests in flight (--concurrency) and --rate: what the read-ahead must cover. */
  inFlight?: number | undefined;
  rate?: number | undefined;
  /** WRITE_GATHER_MS unless given (tests). */
  gatherMs?: number;
  /**
   * Called after each batch is finished: the state's group commit is asked to commit the batch's
   * decisions now. Left to its 50 ms timer, the transaction stayed open most of the time between
   * claims, and a run paused there (SIGSTOP) held every other process's write.
   */
  finished?: (() => void) | undefined;
}

export class OrderedWriter {
  private readonly output: OutputSink | undefined;
  private readonly finish: FinishRow;
  private readonly stop: StopControl;
  private readonly slots: Array<Slot | undefined> = [];
  /** The oldest row not yet written. */
  private head = 0;
  private bufferedBytes = 0;
  private pumping = false;
  /** The gathering write scheduled by pump(), until it starts. */
  private gathering: NodeJS.Timeout | undefined;
  private readonly space = new SignalEvent();
  private readonly readAheadRows: number;
  private readonly gatherMs: number;
  private readonly finished: (() => void) | undefined;
  /** Why the output could not be written, if it could not. */
  writeError: unknown;

  constructor(output: OutputSink | undefined, finish: FinishRow, stop: StopControl, options: WriterOptions = {}) {
    const { inFlight = 0, rate = 0 } = options;
    this.gatherMs = options.gatherMs ?? WRITE_GATHER_MS;
    this.finished = options.finished;
    this.readAheadRows = Math.max(READ_AHEAD_ROWS, 2 * inFlight, Math.ceil(rate * READ_AHEAD_SECONDS));
    this.output = output;
    this.finish = finish;
    this.stop = stop;
    stop.whenStopped(() => this.space.fire());
  }

  /** Queues a row just read; its outcome, or its payee, is filled in by the planner. */
  admit(fields: string[], line: number, read?: string[]): Slot {
    const size = recordSize(fields);
    this.bufferedBytes += size;
    const slot: Slot = { line, row: 0, fields, size, outcome: undefined, task: undefined, duplicate: false };
    if (read !== undefined) slot.read = read;
    this.slots.push(slot);
    return slot;
  }

  /** Waits until the read-ahead bound leaves room for another row (or the run stops). */
  async waitForRoom(): Promise<void> {
    while ((this.slots.length - this.head >= this.readAheadRows || this.bufferedBytes >= READ_AHEAD_BYTES) && !this.stop.reason) {
      await this.space.wait();
    }
  }

  /**
   * Writes every row that is ready, oldest first, once WRITE_GATHER_MS has gathered them (`now`:
   * at once, as the run ends). Called for every row read and every answer.
   */
  pump(now = false): void {
    if (this.pumping) {
      if (now && this.gathering) this.writeNow();
      return;
    }
    // Most of the time the oldest row is not ready.
    if (this.stop.reason || this.head >= this.slots.length || !isReady(this.slots[this.head]!)) return;
    this.pumping = true;
    if (now) void this.writeReady();
    else this.gathering = setTimeout(() => this.writeNow(), this.gatherMs);
  }

  private writeNow(): void {
    clearTimeout(this.gathering);
    this.gathering = undefined;
    void this.writeReady();
  }

  private async writeReady(): Promise<void> {
    try {
      while (this.head < this.slots.length && !this.stop.reason) {
        // Every row that is ready goes out in one write.
        const batch = this.takeBatch();
        if (batch.length === 0) break;
        this.finished?.();
        if (this.output) await this.output.writeRows(batch);
      }
    } catch (error) {
      this.writeError = error;
      this.stop.stop('fatal', (error as Error).message);
    } finally {
      this.pumping = false;
      this.space.fire();
      this.pump();
    }
  }

  private takeBatch(): string[][] {
    const batch: string[][] = [];
    while (this.head < this.slots.length && batch.length < WRITE_BATCH_ROWS && !this.stop.reason) {
      const slot = this.slots[this.head]!;
      const outcome = rowOutcome(slot);
      if (!outcome) break;
      const record = this.finish(slot, outcome);
      if (record) batch.push(record);
      this.bufferedBytes -= slot.size;
      this.slots[this.head] = undefined;
      this.head += 1;
    }
    if (this.head > COMPACT_AFTER_ROWS && this.head * 2 > this.slots.length) {
      this.slots.splice(0, this.head);
      this.head = 0;
    }
    return batch;
  }

  /** Writes what is left once every call has ended (unless the run stopped or the output failed). */
  async drain(): Promise<void> {
    if (this.stop.reason) return;
    this.pump(true);
    while (this.pumping || this.head < this.slots.length) {
      if (this.writeError || this.stop.reason) break;
      await new Promise<void>((r) => setImmediate(r));
      this.pump(true);
    }
  }
}

function isReady(slot: Slot): boolean {
  return slot.outcome !== undefined || slot.task?.outcome !== undefined;
}

/** The row's outcome: its own, or its payee's (a later row of the payee is a `duplicate`). */
export function rowOutcome(slot: Slot): RowOutcome | undefined {
  if (slot.outcome) return slot.outcome;
  const payee = slot.task?.outcome;
  if (!payee) return undefined;
  return {
    status: payee.status,
    reason: payee.reason,
    source: slot.duplicate ? 'duplicate' : payee.source,
    result: payee.result,
    requestId: payee.requestId,
  };
}

function recordSize(fields: readonly string[]): number {
  let size = 64;
  for (const field of fields) size += field.length;
  return size;
}
