/**
 * Which run a release or a review import acts on (docs/ARCHITECTURE.md, "Decisions"): the one
 * named, or the newest of the state; a release needs it final.
 */
import { UsageError } from '../errors.js';
import { formatIst } from '../ist.js';
import { RunRecords, type RecordedRunInputs } from '../state/run-record.js';
import type { Db } from '../state/types.js';

/** The run `runId` of the state, or the newest; with `final`, refuses a run that is not final. */
export function runOf(db: Db, runId: number | undefined, statePath: string, final: boolean): RecordedRunInputs {
  const records = new RunRecords(db);
  const id = runId ?? records.latestRunId();
  if (id === undefined) throw new UsageError(`${statePath} holds no bank run yet: run vas-verify bank first`);
  const run = records.run(id);
  if (!run) {
    const ids = records.runIds();
    throw new UsageError(`run ${id} is not in ${statePath}${ids.length ? ` (runs: ${ids.join(', ')})` : ''}`);
  }
  if (records.rowCount(id) === 0) throw new UsageError(`run ${id} recorded no decisions (${run.status === 'complete' ? 'a run of an older version' : 'it has not written its rows yet'}): run the bank command on its input again first`);
  if (!final) return run;
  const counts = records.notFinal(id);
  const waiting = Object.entries(counts).map(([status, n]) => `${n} ${status}${status === 'DEFERRED' ? deferredWhy(records.deferredUntil(id)) : ''}`);
  if (run.status !== 'complete' || waiting.length > 0) {
    const what = waiting.length > 0 ? `it has rows without a final answer (${waiting.join(', ')})` : 'it has not finished';
    // A deposit in doubt is never sent again by --resume alone: say what it takes.
    const unconfirmed = counts['UNCONFIRMED'] ? '; an UNCONFIRMED row may have moved a rupee: check the bank statement, then add --retry-unconfirmed to ask again' : '';
    throw new UsageError(`run ${id} is not final: ${what}; run the bank command again with --resume until it exits 0, then release${unconfirmed}`);
  }
  return run;
}

/** When deferred rows can be asked again: a --resume before then asks nothing (the quick start's sample has such rows). */
function deferredWhy(until: number | null): string {
  return until === null ? '' : ` by the API's daily limit, due again ${formatIst(until)}`;
}
