#!/usr/bin/env -S node --max-old-space-size=256 --max-semi-space-size=16 --initial-old-space-size=96
/**
 * The executable. It checks the Node version before anything else: on an older Node (Node 20 is
 * often /usr/bin/node, which cron's PATH finds first) the tool's own modules die while loading,
 * with a stack that names no version. Static imports run before a module's body, so the rest of
 * the CLI (./start.ts) is imported dynamically, only once the version is known to be good.
 * The heap cap in the line above keeps V8 from letting garbage pile up to several times the
 * live set (tens of MB): a million-row run then stays near 250 MB of RSS instead of 400+. The
 * young generation is capped too: Node 24 grows it further by default, and a 100,000-row run
 * peaked at 313 MB of RSS without the cap, 225 MB with it, in the same time. The old generation
 * starts with room for 96 MB: left to itself V8 set its next collection only ~9 MB above the ~25 MB
 * that stays live (the lexicons, the IFSC registry, code), and a run did a full mark-compact every
 * 0.4 s (17 in 30,000 rows, with concurrent marking on the other core); with the room, 2–4, and
 * about 30 µs less CPU a row, for ~25 MB more RSS.
 */
import { constants } from 'node:os';
import { nodeVersionProblem, requiredNodeRange } from './node-version.js';

// Signals are followed from here, before the CLI's modules load (a second one exits at once).
const stop = new AbortController();
let signals = 0;
const onSignal = (name: 'SIGINT' | 'SIGTERM' | 'SIGHUP') => {
  signals += 1;
  if (signals > 1) {
    process.stderr.write(`\nsecond ${name}: exiting now\n`);
    // As a shell reports a process that signal ended: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP.
    process.exit(128 + constants.signals[name]);
  }
  stop.abort();
};
process.on('SIGINT', () => onSignal('SIGINT'));
process.on('SIGTERM', () => onSignal('SIGTERM'));
// A closed terminal or SSH session: left to its default, SIGHUP killed a run mid-call (a penny-drop
// in flight became UNCONFIRMED, no resume line). Node drops nohup's ignoring of it at start-up.
process.on('SIGHUP', () => onSignal('SIGHUP'));

const problem = nodeVersionProblem(process.version, requiredNodeRange() ?? '>=22.19');
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exitCode = 1;
} else {
  const { start } = await import('./start.js');
  start(stop.signal);
}
