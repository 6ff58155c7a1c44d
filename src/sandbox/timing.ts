/**
 * Time in the sandbox: the waits that close() cuts short, and the latency drawn before every API
 * answer (its own seeded stream, so turning latency on does not change which requests get faults).
 */
import { createRandom, hashString, type Random } from './prng.js';

/** Thrown into pending waits by close(); handlers stop quietly on it. */
export class SandboxClosedError extends Error {
  constructor() {
    super('sandbox closed');
  }
}

/** Pending timers of handlers, and whether the sandbox has closed. */
export class Waits {
  private readonly pending = new Set<{ timer: NodeJS.Timeout; reject: (error: Error) => void }>();
  private isClosed = false;

  get closed(): boolean {
    return this.isClosed;
  }

  /** Resolves after `ms`; rejects with SandboxClosedError once the sandbox closes. */
  wait(ms: number): Promise<void> {
    if (this.isClosed) return Promise.reject(new SandboxClosedError());
    if (ms <= 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const entry = {
        timer: setTimeout(() => {
          this.pending.delete(entry);
          resolve();
        }, ms),
        reject,
      };
      this.pending.add(entry);
    });
  }

  /** Marks the sandbox closed and rejects every pending wait. */
  close(): void {
    this.isClosed = true;
    for (const entry of this.pending) {
      clearTimeout(entry.timer);
      entry.reject(new SandboxClosedError());
    }
    this.pending.clear();
  }
}

/** The configured latency: fixed, or uniform in [min, max] from a seeded stream. */
export class Latency {
  private readonly random: Random;

  constructor(
    private readonly range: readonly [number, number],
    seed: number,
  ) {
    this.random = createRandom(hashString(`latency:${seed}`));
  }

  draw(): number {
    const [min, max] = this.range;
    if (max === min) return min;
    return Math.round(min + this.random() * (max - min));
  }
}
