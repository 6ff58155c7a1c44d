/**
 * CPU profile of the bulk pipeline: `node --import tsx bench/profile.ts [rows] [concurrency]`
 * (defaults 20000 and 16). Runs dist/cli/bin.js under `node --cpu-prof` (same heap cap) against
 * the sandbox in a separate process, then prints the top self-time functions and the top
 * self time grouped by package/source file. The .cpuprofile stays in bench/out/profile/ for
 * Chrome DevTools or speedscope.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeUniqueFile } from './lib/data.js';
import { ROOT, killAll, runCli, startSandboxProcess } from './lib/procs.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const rows = Number(process.argv[2] ?? 20_000);
const concurrency = Number(process.argv[3] ?? 16);
const out = path.join(ROOT, 'bench', 'out', 'profile');
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
const input = path.join(out, `unique-${rows}.csv`);
await writeUniqueFile(input, rows, 1);

process.on('exit', killAll);
const sandbox = await startSandboxProcess({});
let run;
try {
  run = await runCli(
    ['bank', input, '-o', path.join(out, 'out.csv'), '--state', path.join(out, 'state.sqlite'), '--base-url', sandbox.url, '--concurrency', String(concurrency), '--quiet'],
    { env: { VAS_TOKEN: 'sandbox-token' }, extraNodeArgs: ['--cpu-prof', `--cpu-prof-dir=${out}`] },
  );
} finally {
  await sandbox.stop();
  killAll();
}
process.stdout.write(`${rows} rows, --concurrency ${concurrency}: ${Math.round(run.wallMs)} ms wall, ${(run.cpuUserS + run.cpuSysS).toFixed(2)} s CPU, exit ${run.code}\n`);

const file = fs.readdirSync(out).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error('no .cpuprofile written');
const profile = JSON.parse(fs.readFileSync(path.join(out, file), 'utf8')) as Profile;
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

const where = (url: string) => {
  const rel = url.replace(`file://${ROOT}/`, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(rel);
  if (pkg) return pkg[1]!;
  return rel === '' ? '(native/vm)' : rel.startsWith('node:') ? 'node core' : rel;
};
const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
for (const node of profile.nodes) {
  const us = selfUs.get(node.id) ?? 0;
  if (us === 0) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const rel = url.replace(`file://${ROOT}/`, '');
  const fnKey = `${functionName || '(anonymous)'}  ${rel ? `${rel}:${lineNumber + 1}` : ''}`;
  byFunction.set(fnKey, (byFunction.get(fnKey) ?? 0) + us);
  byFile.set(where(url), (byFile.get(where(url)) ?? 0) + us);
}
const top = (map: Map<string, number>, n: number) =>
  [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, us]) => `${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`).join('\n');
process.stdout.write(`\nself time by function (total ${(total / 1000).toFixed(0)} ms sampled):\n${top(byFunction, 30)}\n`);
process.stdout.write(`\nself time by package / source file:\n${top(byFile, 20)}\n`);
process.stdout.write(`\nprofile: ${path.join(out, file)}\n`);
