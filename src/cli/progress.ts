/**
 * Progress: one live line on a terminal; plain periodic lines when stderr is a file or a pipe
 * (cron logs), so a log shows how far a night's run got.
 */
import type { ProgressSnapshot } from '../pipeline/bank-run/index.js';

/** A plain progress line is written at most this often when not on a terminal. */
export const PLAIN_PROGRESS_INTERVAL_MS = 10_000;

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : `${m}:${String(sec).padStart(2, '0')}`;
}

export function formatProgress(p: ProgressSnapshot): string {
  const rate = p.elapsedMs > 0 ? (p.rowsDone * 1000) / p.elapsedMs : 0;
  const total = p.totalKnown ? `${p.rowsTotal}` : `~${p.rowsTotal}`;
  const pct = p.rowsTotal > 0 ? Math.min(100, Math.floor((p.rowsDone * 100) / p.rowsTotal)) : 0;
  const eta = rate > 0 && p.rowsTotal > p.rowsDone ? formatDuration(((p.rowsTotal - p.rowsDone) / rate) * 1000) : '-';
  const counts = Object.entries(p.counts)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${status} ${n}`)
    .join(', ');
  return `${p.rowsDone}/${total} rows (${pct}%), ${rate.toFixed(1)} rows/s, ETA ${eta}, ${p.callsMade} calls${counts ? `, ${counts}` : ''}`;
}

export interface ProgressRenderer {
  update(p: ProgressSnapshot): void;
  done(): void;
}

export function createProgress(options: {
  tty: boolean;
  /** Raw terminal output, for the live line. */
  write: (text: string) => void;
  /** A log line, for the periodic plain lines (text or JSON as the logger is set). */
  log: (line: string) => void;
  now?: () => number;
  quiet: boolean;
}): ProgressRenderer {
  const now = options.now ?? Date.now;
  let last = now();
  let drawn = false;
  if (options.quiet) return { update() {}, done() {} };
  return {
    update(p) {
      if (options.tty) {
        options.write(`\r\x1b[2K${formatProgress(p)}`);
        drawn = true;
        return;
      }
      const t = now();
      if (t - last < PLAIN_PROGRESS_INTERVAL_MS) return;
      last = t;
      options.log(`progress: ${formatProgress(p)}`);
    },
    done() {
      if (drawn) options.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
