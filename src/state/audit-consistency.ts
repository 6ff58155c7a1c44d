/**
 * The tables a payout rests on, checked against the audit trail (docs/ARCHITECTURE.md,
 * "Decisions"). The hash chain shows an entry changed or removed; these show a decision changed
 * beside it: a reviews row with no entry of its own (inserted by hand), one whose entry says
 * otherwise (edited), an entry whose review is gone (a rejection deleted), and a run's decisions
 * (run_rows) that differ from the digest its last invocation committed to the chain. `audit`
 * reports them; `release` refuses to write a payout on them.
 */
import { createHash } from 'node:crypto';
import type { Db } from './types.js';
import { hasColumn } from './run-record.js';
import { AuditMismatchError } from '../errors.js';

/** A decided row as the run's decisions digest takes it (the run writes it, the check recomputes it). */
export function decisionLine(row: number, account: string | null, ifsc: string | null, decision: string, reason: string): string {
  return `${row}\u001f${account ?? ''}|${ifsc ?? ''}\u001f${decision}\u001f${reason}\n`;
}

interface ReviewRow {
  id: number;
  account: string;
  ifsc: string;
  holder: string;
  verdict: string;
  reviewer: string;
  note: string | null;
  runId: number | null;
  row: number | null;
  approvals: number;
}

/** What the reviews table and the review entries disagree on, or undefined. */
export function reviewsProblem(db: Db): string | undefined {
  const approvals = hasColumn(db, 'reviews', 'approvals') ? 'approvals' : '1 AS approvals';
  const reviews = db.prepare(`SELECT id, account, ifsc, holder, verdict, reviewer, note, run_id AS runId, row, ${approvals} FROM reviews ORDER BY id`).all() as ReviewRow[];
  const entries = new Map<number, { seq: number; runId: number | null; entry: Record<string, unknown> }>();
  for (const e of db.prepare(`SELECT seq, run_id AS runId, entry FROM audit WHERE kind = 'review' ORDER BY seq`).iterate() as Iterable<{ seq: number; runId: number | null; entry: string }>) {
    const entry = JSON.parse(e.entry) as Record<string, unknown>;
    if (typeof entry.review === 'number') entries.set(entry.review, { seq: e.seq, runId: e.runId, entry });
  }
  for (const r of reviews) {
    const found = entries.get(r.id);
    if (!found) return `review ${r.id} (${r.verdict} by ${r.reviewer}) has no entry in the audit trail: it was not recorded by vas-verify`;
    const e = found.entry;
    const evidence = (e.evidence ?? {}) as Record<string, unknown>;
    const same = e.account === r.account && e.ifsc === r.ifsc && e.holder === r.holder && e.verdict === r.verdict && e.reviewer === r.reviewer && (e.note ?? null) === r.note
      && (e.row ?? null) === r.row && found.runId === r.runId && (typeof evidence.approvals === 'number' ? evidence.approvals : 1) === r.approvals;
    if (!same) return `review ${r.id} differs from its audit entry ${found.seq}: it was changed after it was recorded`;
    entries.delete(r.id);
  }
  const [missing] = entries;
  if (missing) return `audit entry ${missing[1].seq} records review ${missing[0]}, which the reviews table no longer has: it was deleted`;
  return undefined;
}

/**
 * What a run's decisions and the digest its invocations last committed disagree on, or undefined.
 * The digest is the latest run entry that has one (a re-emission by copy decides nothing and
 * commits none). A run whose last invocation recorded no end (killed, or still running) is not
 * compared: its rows may have been decided after the digest, by the tool. A run with decisions and
 * no run entry at all lost it (the end of the chain cut off, which the hash chain cannot show: the
 * entry and the invocation's end are written in one transaction). Entries written before the
 * decisions digest existed are not compared.
 */
export function runDecisionsProblem(db: Db, runId?: number): string | undefined {
  const finished = db.prepare(
    `SELECT s.run_id AS runId FROM run_stats s
     WHERE s.finished_at IS NOT NULL AND (? IS NULL OR s.run_id = ?)
       AND EXISTS (SELECT 1 FROM run_rows r WHERE r.run_id = s.run_id)
     ORDER BY s.run_id`,
  ).all(runId ?? null, runId ?? null) as { runId: number }[];
  const anyEntry = db.prepare(`SELECT 1 FROM audit WHERE kind = 'run' AND run_id = ? LIMIT 1`);
  const digested = db.prepare(
    `SELECT seq, entry FROM audit WHERE kind = 'run' AND run_id = ? AND json_extract(entry, '$.decisionsDigest') IS NOT NULL ORDER BY seq DESC LIMIT 1`,
  );
  const rows = db.prepare(`SELECT row, account, ifsc, decision, decision_reason AS reason FROM run_rows WHERE run_id = ? ORDER BY row LIMIT ?`);
  for (const run of finished) {
    if (anyEntry.get(run.runId) === undefined) return `run ${run.runId} has decisions but no entry of its own in the audit trail: its entry was deleted`;
    const latest = digested.get(run.runId) as { seq: number; entry: string } | undefined;
    if (latest === undefined) continue;
    const entry = JSON.parse(latest.entry) as { rowsDecided?: unknown; decisionsDigest?: unknown };
    if (typeof entry.decisionsDigest !== 'string' || typeof entry.rowsDecided !== 'number') continue;
    const digest = createHash('sha256');
    let text = '';
    for (const r of rows.iterate(run.runId, entry.rowsDecided) as Iterable<{ row: number; account: string | null; ifsc: string | null; decision: string; reason: string }>) {
      text += decisionLine(r.row, r.account, r.ifsc, r.decision, r.reason);
      if (text.length >= 64 * 1024) {
        digest.update(text);
        text = '';
      }
    }
    digest.update(text);
    if (digest.digest('hex') !== entry.decisionsDigest) return `run ${run.runId}'s decisions differ from those its audit entry ${latest.seq} committed to: a decision was changed after the run`;
  }
  return undefined;
}

/** The first disagreement between the decision tables and the audit trail, or undefined. */
export function auditConsistencyProblem(db: Db, runId?: number): string | undefined {
  return reviewsProblem(db) ?? runDecisionsProblem(db, runId);
}

/**
 * Refuses (AuditMismatchError, exit 1) to decide anything on a state whose reviews disagree with
 * its audit trail: the bank run, the review page and `review --import` call it before they start.
 */
export function refuseUnbackedReviews(db: Db, statePath: string): void {
  const problem = reviewsProblem(db);
  if (problem !== undefined) throw new AuditMismatchError(`the reviews in ${statePath} disagree with its audit trail: ${problem}; run vas-verify audit, keep the file as evidence and restore the state from a backup`);
}
