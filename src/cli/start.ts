/**
 * Wires the process to main(): stdout and stderr, the exit code. Imported by ./bin.ts once it has
 * checked the Node version; bin.ts follows the signals from its first line (a SIGTERM while the
 * modules load stops the run like any other), and hands their AbortSignal here.
 */
import { internalErrorMessage } from './exit.js';
import { main } from './main.js';
import { redact } from '../redact.js';
import { stripControl } from '../terminal.js';

const write = (stream: NodeJS.WriteStream) => (text: string) => {
  stream.write(text);
};
/** stdout carries text from outside (API values, session ids): redacted, no control characters. */
const writeClean = (stream: NodeJS.WriteStream) => (text: string) => {
  stream.write(stripControl(redact(text)));
};

/** Runs the CLI; `stopSignal` is aborted by SIGINT/SIGTERM. */
export function start(stopSignal: AbortSignal): void {
  void main(process.argv.slice(2), {
    env: process.env,
    stdout: writeClean(process.stdout),
    stderr: write(process.stderr),
    stderrIsTty: process.stderr.isTTY === true,
    stopSignal,
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
}
