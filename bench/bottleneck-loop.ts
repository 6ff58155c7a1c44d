/**
 * The baseline of the rate sweep (issue #32): Bottleneck, the rate limiter the user's design
 * named, driving the product's own client (createClient, the bulk retry policy) at a quota of R,
 * in its own process like the CLI. Configured as Bottleneck's README recommends for "R requests a
 * second": `minTime: 1000 / R` spaces the starts, a reservoir of R refreshed to R every 1000 ms
 * caps each second ("also use maxConcurrent and/or minTime for safety"), and `maxConcurrent` is
 * the product's default cap with --rate, so both have the same room in flight.
 *
 *   node --import tsx bench/bottleneck-loop.ts <baseUrl> <rows> <rate> <seed>
 *
 * Prints one JSON line: { rows, ms, cpuMs, failed }. Every request goes through the limiter once;
 * a 429's retry is the client's (it waits the Retry-After), which Bottleneck does not see — as in
 * any code that wraps a client in a limiter.
 */
import Bottleneck from 'bottleneck';
import { createClient } from '../src/api/client.js';
import { BULK_RETRY } from '../src/cli/config.js';
import { DEFAULT_RATE_CONCURRENCY_CAP } from '../src/limiter/index.js';
import { payee } from './lib/data.js';

const [baseUrl = '', rowsText = '0', rateText = '1', seedText = '1'] = process.argv.slice(2);
const rows = Number(rowsText);
const rate = Number(rateText);
const seed = Number(seedText);

const client = createClient({ baseUrl, token: 'sandbox-token', connections: DEFAULT_RATE_CONCURRENCY_CAP, retry: BULK_RETRY });
const limiter = new Bottleneck({
  minTime: 1000 / rate,
  reservoir: rate,
  reservoirRefreshAmount: rate,
  reservoirRefreshInterval: 1000,
  maxConcurrent: DEFAULT_RATE_CONCURRENCY_CAP,
});

let failed = 0;
const cpuBefore = process.cpuUsage();
const started = performance.now();
await Promise.all(
  Array.from({ length: rows }, (_, i) => {
    const p = payee(seed, i);
    return limiter
      .schedule(() => client.verifyBankAccount({ accountNumber: p.account, ifsc: p.ifsc, mode: 'pl' }))
      .catch(() => {
        failed += 1;
      });
  }),
);
const ms = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
await limiter.stop({ dropWaitingJobs: false });
await client.close();
process.stdout.write(`${JSON.stringify({ rows, ms, cpuMs: (cpu.user + cpu.system) / 1000, failed })}\n`);
