/**
 * `vas-verify review [--state S] [--run N] [--reviewer NAME] [--approvals 2] [--port N]`: serves
 * the review page (src/review/) on 127.0.0.1 and prints its URL, with its one-time token, on
 * stdout; stops when the reviewer clicks Done or on Ctrl-C. `--import FILE` takes the decisions
 * from an edited enriched file instead (./import.ts).
 */
import { once } from 'node:events';
import { UsageError } from '../../../errors.js';
import { openReview, startReviewServer, type RowAnswer, type Verdict } from '../../../review/index.js';
import { stripControl } from '../../../terminal.js';
import { resolveStatePath } from '../../config.js';
import { EXIT } from '../../exit.js';
import type { CommandIo } from '../../io.js';
import { listenError } from '../../listen-error.js';
import { checkExistingState } from '../release/state.js';
import { reviewImportCommand } from './import.js';
import { reviewerName } from './reviewer.js';
import type { ReviewFlags } from './options.js';

/** Longest reviewer name kept. */

export async function reviewCommand(flags: ReviewFlags, io: CommandIo): Promise<number> {
  if (flags.run !== undefined && !(Number.isInteger(flags.run) && flags.run > 0)) throw new UsageError('--run must be a run id (a whole number ≥ 1)');
  if (flags.approvals !== undefined && flags.approvals !== 1 && flags.approvals !== 2) throw new UsageError('--approvals must be 1 or 2');
  if (flags.port !== undefined && !(Number.isInteger(flags.port) && flags.port >= 0 && flags.port <= 65_535)) throw new UsageError('--port must be a port number (0–65535; 0 picks a free one)');
  if (flags.import !== undefined) {
    return reviewImportCommand({ file: flags.import, state: flags.state, run: flags.run, reviewer: flags.reviewer, approvals: flags.approvals }, io);
  }
  const reviewer = reviewerName(flags.reviewer, io.env);
  const statePath = resolveStatePath(flags.state, io.env);
  // A missing, empty or foreign file is refused before openReview opens (and chmods) it.
  checkExistingState(statePath);
  const opened = openReview({
    statePath,
    runId: flags.run,
    reviewer,
    approvals: flags.approvals as 1 | 2 | undefined,
    now: io.now,
  });
  try {
    const { REVIEW, HOLD } = opened.toReview;
    if (REVIEW + HOLD === 0) {
      io.log.info(`run ${opened.runId} left no row at REVIEW or HOLD: nothing to review`);
      return EXIT.ok;
    }
    const server = await startReviewServer({
      session: opened.session, runId: opened.runId, inputName: opened.inputName, port: flags.port,
      onDecision: (verdict, answers) => io.log.info(describeDecision(reviewer, verdict, answers)),
    }).catch((error: unknown) => {
      throw listenError(error, '127.0.0.1', flags.port);
    });
    try {
      io.stdout(`${server.url}\n`);
      const approvals = opened.policy.approvals === 2 ? '; two different reviewers must accept a payee' : '';
      io.log.info(`review of run ${opened.runId} (${stripControl(opened.inputName)}): ${REVIEW} row(s) at REVIEW, ${HOLD} at HOLD; reviewer ${stripControl(reviewer)}${approvals}`);
      io.log.info('open the URL above in a browser on this machine (it opens the page once); click Done there, or press Ctrl-C, to stop');
      const stopped = new AbortController();
      const signal = AbortSignal.any([io.stopSignal, stopped.signal]);
      await Promise.race([server.done.then(() => stopped.abort()), signal.aborted ? undefined : once(signal, 'abort')]);
      io.log.info(`review stopped${io.stopSignal.aborted ? ' (signal)' : ''}: ${opened.session.recorded} decision(s) recorded in the state file`);
    } finally {
      await server.close();
    }
  } finally {
    opened.close();
  }
  return EXIT.ok;
}


function describeDecision(reviewer: string, verdict: Verdict, answers: readonly RowAnswer[]): string {
  const done = answers.filter((a) => a.ok).map((a) => a.row);
  const refused = answers.length - done.length;
  const what = verdict === 'ACCEPTED' ? 'accepted' : 'rejected';
  return `${stripControl(reviewer)} ${what} ${done.length} row(s)${done.length > 0 ? ` (rows ${done.slice(0, 10).join(', ')}${done.length > 10 ? ', …' : ''})` : ''}${refused > 0 ? `; ${refused} refused` : ''}`;
}
