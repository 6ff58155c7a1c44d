/**
 * Wires the process to main(): stdout and stderr, the exit code. Imported by ./bin.ts once it has
 * checked the Node version; bin.ts follows the signals from its first line (a SIGTERM while the
 * modules load stops the run like any other), and hands their AbortSignal here.
 */
import { internalErrorMessage } from './exit.js';
import { main } from './main.js';
import { redact } from '../redact.js';
import { stripControl } from '../terminal.js';

/**
 * stdout and stderr may fail under the command: a reader that stops early (`| head -1`) closes the
 * pipe (EPIPE; Node ignores SIGPIPE, so it arrives as an 'error' event), or a file fills its disk.
 * Unhandled, that event killed the process with exit 1 and a stack. Now a failed stream is left
 * alone: later writes to it are dropped and the command runs on to its own exit code (audit still
 * verifies the whole chain, a bank run still finishes and records its state) — a reader that
 * closes the pipe is normal shell use, and a script's exit code (`set -o pipefail`) stays the
 * command's. Any other failure of stdout (ENOSPC, EIO) loses output: one line on stderr, and a
 * command that would have ended 0 ends 1. A failing stderr is only silenced: nowhere is left to say so.
 */
interface Output {
  write: (text: string) => void;
  /** The failure of the stream, other than a closed pipe; undefined while it works. */
  lost: () => NodeJS.ErrnoException | undefined;
}

function guarded(stream: NodeJS.WriteStream, clean: boolean, onLost?: (error: NodeJS.ErrnoException) => void): Output {
  let failed = false;
  let lost: NodeJS.ErrnoException | undefined;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (failed) return;
    failed = true;
    if (error.code !== 'EPIPE') {
      lost = error;
      onLost?.(error);
    }
  });
  return {
    /** stdout carries text from outside (API values, session ids): redacted, no control characters. */
    write: (text: string) => {
      if (failed || stream.destroyed) return;
      stream.write(clean ? stripControl(redact(text)) : text);
    },
    lost: () => lost,
  };
}

/** Runs the CLI; `stopSignal` is aborted by SIGINT/SIGTERM/SIGHUP. */
export function start(stopSignal: AbortSignal): void {
  const stderr = guarded(process.stderr, false);
  const stdout = guarded(process.stdout, true, (error) => {
    stderr.write(`error: standard output failed (${error.code ?? error.message}): the rest of the output is lost\n`);
    // The event may come after main() returned (it is emitted on the next tick).
    if (process.exitCode === 0) process.exitCode = 1;
  });
  void main(process.argv.slice(2), {
    env: process.env,
    stdout: stdout.write,
    stderr: stderr.write,
    stderrIsTty: process.stderr.isTTY === true,
    stopSignal,
  }).then(
    (returned) => {
      const code = returned === 0 && stdout.lost() ? 1 : returned;
      process.exitCode = code;
      // Anything still holding the loop open after main() returned is not ours to wait for.
      setTimeout(() => process.exit(process.exitCode ?? code), 2000).unref();
    },
    (error: unknown) => {
      stderr.write(`${stripControl(internalErrorMessage(error))}\n`);
      process.exitCode = 1;
    },
  );
}
