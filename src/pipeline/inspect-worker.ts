/** Worker-thread entry of `inspectInBackground`: inspects one file and posts the answer. */
import { parentPort, workerData } from 'node:worker_threads';
import { inspectInput } from './inspect.js';

const { inputPath } = workerData as { inputPath: string };
try {
  parentPort!.postMessage({ ok: true, info: await inspectInput(inputPath) });
} catch (error) {
  const e = error as Error;
  parentPort!.postMessage({ ok: false, name: e.name, message: e.message });
}
