/** Progress snapshots of a bank run for whoever shows them (the CLI's progress line). */
import type { BankRunSummary, ProgressSnapshot } from './types.js';

export const PROGRESS_INTERVAL_MS = 1_000;

export class ProgressReporter {
  private readonly onProgress: ((snapshot: ProgressSnapshot) => void) | undefined;
  private readonly now: () => number;
  private readonly started: number;
  private readonly summary: BankRunSummary;
  /** Line breaks in the file: the row estimate until the end is read. */
  private readonly lines: number;
  private readonly timer: NodeJS.Timeout | undefined;
  private last = 0;
  rowsRead = 0;
  totalKnown = false;

  constructor(onProgress: ((snapshot: ProgressSnapshot) => void) | undefined, now: () => number, started: number, summary: BankRunSummary, lines: number) {
    this.onProgress = onProgress;
    this.now = now;
    this.started = started;
    this.summary = summary;
    this.lines = lines;
    this.timer = onProgress ? setInterval(() => this.report(false), PROGRESS_INTERVAL_MS) : undefined;
    this.timer?.unref();
  }

  /** Reports, at most every half interval unless forced. */
  report(force: boolean): void {
    if (!this.onProgress) return;
    const t = this.now();
    if (!force && t - this.last < PROGRESS_INTERVAL_MS / 2) return;
    this.last = t;
    const { summary } = this;
    this.onProgress({
      rowsDone: summary.rows,
      rowsTotal: this.totalKnown ? this.rowsRead : Math.max(this.rowsRead, this.lines - 1),
      totalKnown: this.totalKnown,
      callsMade: summary.calls.pl + summary.calls.pd,
      elapsedMs: t - this.started,
      counts: { ...summary.statuses },
    });
  }

  stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
