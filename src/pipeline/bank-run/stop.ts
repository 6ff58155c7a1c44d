/**
 * Why and when the bank run stops dispatching (docs/ARCHITECTURE.md, "Stopping"). The first
 * reason wins. A signal lets calls in flight finish for a grace period, then cancels them; a
 * broken service or a fatal fault lets them finish or fail on their own. Any stop at once empties
 * the rate limiter's queue: a payee waiting for its turn is never sent.
 */
import { setMaxListeners } from 'node:events';
import type { StopReason } from './types.js';

/** How long a stop waits for calls in flight before cancelling them. Default 15 s. */
export const DEFAULT_STOP_GRACE_MS = 15_000;

export class StopControl {
  reason: StopReason | null = null;
  message: string | null = null;
  /** Every call in flight listens to this one signal. */
  readonly callAbort = new AbortController();
  /** Every payee waiting for its turn in the rate limiter listens to this one; aborted by any stop. */
  readonly turnAbort = new AbortController();
  private readonly graceMs: number;
  private readonly onStop: Array<() => void> = [];

  constructor(graceMs: number) {
    this.graceMs = graceMs;
    setMaxListeners(0, this.callAbort.signal);
    setMaxListeners(0, this.turnAbort.signal);
  }

  /** Called once, on the first stop (the writer wakes its reader). */
  whenStopped(listener: () => void): void {
    this.onStop.push(listener);
  }

  stop(reason: StopReason, message: string | null): void {
    if (this.reason) return;
    this.reason = reason;
    this.message = message;
    for (const listener of this.onStop) listener();
    this.turnAbort.abort(); // payees waiting for their turn in the rate limiter leave its queue unsent
    if (reason === 'signal') {
      const timer = setTimeout(() => this.callAbort.abort(), this.graceMs);
      timer.unref();
    }
  }

  /** Stops on SIGINT/SIGTERM/SIGHUP (an aborted `signal`) until `detach()`. */
  follow(signal: AbortSignal): { detach(): void } {
    const onAbort = () => this.stop('signal', 'stopped by signal');
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    return { detach: () => signal.removeEventListener('abort', onAbort) };
  }
}

/** A minimal re-armable event: `wait()` until the next `fire()`. */
export class SignalEvent {
  private resolve: (() => void) | undefined;
  private promise: Promise<void> | undefined;

  wait(): Promise<void> {
    this.promise ??= new Promise<void>((r) => (this.resolve = r));
    return this.promise;
  }

  fire(): void {
    const r = this.resolve;
    this.promise = undefined;
    this.resolve = undefined;
    r?.();
  }
}
