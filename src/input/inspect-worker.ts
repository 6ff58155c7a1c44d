/** Worker-thread entry of `inspectInBackground`: inspects one file and posts the answer. */
import { parentPort, workerData } from 'node:worker_threads';
import { isAppError } from '../errors.js';
import { inspectInput } from './inspect.js';

const { inputPath } = workerData as { inputPath: string };
try {
  parentPort!.postMessage({ ok: true, info: await inspectInput(inputPath) });
} catch (error) {
  const e = error as Error;
  parentPort!.postMessage({ ok: false, kind: isAppError(e) ? e.kind : null, message: e.message });
}
