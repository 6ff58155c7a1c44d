/**
 * Wires the process to main(): signals, stdout and stderr, the exit code. Imported by ./bin.ts
 * once it has checked the Node version.
 */
import { internalErrorMessage } from './exit.js';
import { main } from './main.js';
import { redact } from '../redact.js';
import { stripControl } from '../terminal.js';

const stop = new AbortController();
let signals = 0;
const onSignal = (name: string) => {
  signals += 1;
  if (signals > 1) {
    process.stderr.write(`\nsecond ${name}: exiting now\n`);
    process.exit(130);
  }
  stop.abort();
};
process.on('SIGINT', () => onSignal('SIGINT'));
process.on('SIGTERM', () => onSignal('SIGTERM'));

const write = (stream: NodeJS.WriteStream) => (text: string) => {
  stream.write(text);
};
/** stdout carries text from outside (API values, session ids): redacted, no control characters. */
const writeClean = (stream: NodeJS.WriteStream) => (text: string) => {
  stream.write(stripControl(redact(text)));
};

main(process.argv.slice(2), {
  env: process.env,
  stdout: writeClean(process.stdout),
  stderr: write(process.stderr),
  stderrIsTty: process.stderr.isTTY === true,
  stopSignal: stop.signal,
}).then(
  (code) => {
    process.exitCode = code;
    // Anything still holding the loop open after main() returned is not ours to wait for.
    setTimeout(() => process.exit(code), 2000).unref();
  },
  (error: unknown) => {
    process.stderr.write(`${stripControl(internalErrorMessage(error))}\n`);
    process.exitCode = 1;
  },
);
