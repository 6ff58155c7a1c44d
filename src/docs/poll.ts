/** Pure decisions of `docs fetch --wait`: what a status means, and how long to wait between polls. */

/** What a document-locker status means for a caller who wants the documents. */
export type StatusClass = 'completed' | 'failed' | 'pending';

// The interface names only `Completed`; these are the ends the service (or the sandbox's
// `Denied`) may report instead. Anything unknown is treated as still in progress, so a new
// intermediate status never aborts a wait; the --timeout bounds it.
const FAILED = new Set(['denied', 'rejected', 'failed', 'failure', 'expired', 'cancelled', 'canceled', 'declined', 'error']);

export function classifyStatus(status: string): StatusClass {
  const s = status.trim().toLowerCase();
  if (s === 'completed' || s === 'complete') return 'completed';
  if (FAILED.has(s)) return 'failed';
  return 'pending';
}

export interface PollPolicy {
  /** First wait in ms; default 1000. */
  initialMs: number;
  /** Growth per poll; default 1.6. */
  factor: number;
  /** Longest wait between two polls in ms; default 15000. */
  capMs: number;
  /** ± share of the delay drawn at random so many waiting fetches do not poll in step; default 0.2. */
  jitter: number;
}

export const DEFAULT_POLL_POLICY: PollPolicy = { initialMs: 1000, factor: 1.6, capMs: 15_000, jitter: 0.2 };
/** How long `--wait` waits by default. */
export const DEFAULT_WAIT_TIMEOUT = '15m';

/**
 * The wait after poll number `attempt` (1-based), never beyond what is left before the
 * deadline: `min(cap, initial·factor^(attempt-1))·(1 ± jitter)`, then clipped to `remainingMs`.
 */
export function nextPollDelay(attempt: number, remainingMs: number, random: () => number, policy: PollPolicy = DEFAULT_POLL_POLICY): number {
  const base = Math.min(policy.capMs, policy.initialMs * policy.factor ** Math.max(0, attempt - 1));
  const jittered = base * (1 - policy.jitter + 2 * policy.jitter * random());
  return Math.max(0, Math.min(Math.round(jittered), Math.floor(remainingMs)));
}
