/**
 * The client ceiling: a bare undici `request()` loop, in its own process like the CLI, sending
 * the same penny-less requests for the same payees at a fixed concurrency. No CSV, no state, no
 * schema, no retry: request, read the JSON body, check the status.
 *
 *   node --import tsx bench/bare-loop.ts <baseUrl> <rows> <concurrency> <seed>
 *
 * Prints one JSON line: { rows, ms, cpuMs, non200 }. The time (and the process's CPU time) runs
 * from the first request to the last answer; building the request bodies happens before it.
 */
import { Agent, request } from 'undici';
import { API_PREFIX, OPS } from '../src/api/schemas.js';
import { payee } from './lib/data.js';

const [baseUrl = '', rowsText = '0', concurrencyText = '1', seedText = '1'] = process.argv.slice(2);
const rows = Number(rowsText);
const concurrency = Number(concurrencyText);
const target = `${baseUrl}${API_PREFIX}${OPS.pennyLess}`;
const bodies: string[] = [];
for (let i = 0; i < rows; i += 1) {
  const p = payee(Number(seedText), i);
  bodies.push(JSON.stringify({ accountNumber: p.account, ifscNumber: p.ifsc }));
}
const agent = new Agent({ connections: concurrency, keepAliveTimeout: 4_000, keepAliveMaxTimeout: 4_000 });
const headers = { authorization: 'Bearer sandbox-token', 'content-type': 'application/json', accept: 'application/json' };

let next = 0;
let non200 = 0;
async function worker(): Promise<void> {
  while (next < rows) {
    const body = bodies[next]!;
    next += 1;
    const res = await request(target, { method: 'POST', dispatcher: agent, headers, body });
    await res.body.json();
    if (res.statusCode !== 200) non200 += 1;
  }
}
const cpuBefore = process.cpuUsage();
const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, () => worker()));
const ms = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
const cpuMs = (cpu.user + cpu.system) / 1000;
await agent.close();
process.stdout.write(`${JSON.stringify({ rows, ms, cpuMs, non200 })}\n`);
