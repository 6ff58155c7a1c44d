/**
 * The report's figures from the state (src/state/report-reader.ts, which owns the SQL), with
 * every account number and long digit run masked to its last four before the page sees it.
 */
import { readRunAggregates as readFromState, type CappedList, type DecisionNow, type DecisionRow, type RunAggregates, type RunDecisions } from '../state/report-reader.js';
import type { Db } from '../state/types.js';
import { maskAccountNumber, maskLongDigits } from './escape.js';

export { chooseBinMs, latestRunId, listRuns, readRecordedRun, RunNotFoundError, type RunAggregates } from '../state/report-reader.js';

/** Every aggregate of run `runId`, masked for the page; lists capped at `listCap` entries; `now`: rows decided otherwise since the run (src/report/standing.ts). */
export function readRunAggregates(db: Db, runId: number, listCap: number, now?: ReadonlyMap<number, DecisionNow>): RunAggregates {
  const raw = readFromState(db, runId, listCap, now);
  const maskItems = <T extends { account: string }>(list: { items: T[]; total: number }, mask: (item: T) => Partial<T>) => ({
    total: list.total,
    items: list.items.map((item) => ({ ...item, account: maskAccountNumber(item.account), ...mask(item) })),
  });
  return {
    ...raw,
    changedHolders: maskItems(raw.changedHolders, (c) => ({ description: maskLongDigits(c.description) })),
    deferred: maskItems(raw.deferred, (a) => ({ reason: maskLongDigits(a.reason) })),
    failed: maskItems(raw.failed, (a) => ({ reason: maskLongDigits(a.reason) })),
    unconfirmed: maskItems(raw.unconfirmed, (a) => ({ reason: maskLongDigits(a.reason) })),
    topReasons: raw.topReasons.map((r) => ({ reason: maskLongDigits(r.reason), count: r.count })),
    decisions: raw.decisions && maskDecisions(raw.decisions),
  };
}

function maskDecisions(d: RunDecisions): RunDecisions {
  const mask = (list: CappedList<DecisionRow>): CappedList<DecisionRow> => ({
    total: list.total,
    items: list.items.map((r) => ({ ...r, account: r.account === null ? null : maskAccountNumber(r.account), reason: r.reason === null ? null : maskLongDigits(r.reason) })),
  });
  return { ...d, held: mask(d.held), review: mask(d.review), notVerified: mask(d.notVerified), mismatchedPaid: mask(d.mismatchedPaid) };
}
