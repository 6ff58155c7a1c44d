/**
 * The bank run's part of the audit trail (docs/ARCHITECTURE.md, "Decisions"). A row's automatic
 * decision gets an entry of its own when it is not PAY or when it differs from the decision the
 * row had before (a HOLD that became PAY, a PAY that became HOLD); every decision of the
 * invocation, PAY included, is committed by the run's entry at its end: the counts and a sha256
 * digest over each decided row (row, payee, decision, reason, holder), in file order. Entries per
 * row for a million unchanged PAY rows every night would make the trail the state's largest table.
 */
import { createHash, type Hash } from 'node:crypto';
import type { RowDecision } from '../../decision/index.js';
import type { BankStore } from '../../state/bank-store.js';
import { decisionLine } from '../../state/audit-consistency.js';

/** What one decided row contributes (the audit entry's evidence). */
export interface DecidedRow {
  row: number;
  line: number;
  account: string | null;
  ifsc: string | null;
  holder: string | null;
  status: string;
  reasonCode: string;
  nameMatch: string | null;
  nameScore: number | null;
  requestId: string | null;
  decision: RowDecision;
  /** The decision the row had before this invocation, if it had one. */
  before: { decision: string; reason: string } | undefined;
}

/** Digest text gathered before it is hashed. */
const DIGEST_CHUNK_CHARS = 64 * 1024;

export class DecisionAudit {
  private readonly store: BankStore;
  private readonly runId: number;
  private readonly digest: Hash = createHash('sha256');
  /** Over each decided row's row, payee, decision and reason only: what run_rows keeps, so `audit` and `release` recompute it (audit-consistency.ts). */
  private readonly decisionsDigest: Hash = createHash('sha256');
  private pendingDecisions = '';
  /** Digest lines not yet hashed: hashed a few thousand at a time (an update per row cost 3 µs a row; the digest is the same). */
  private pending = '';
  private rows = 0;
  private entries = 0;

  constructor(store: BankStore, runId: number) {
    this.store = store;
    this.runId = runId;
  }

  /** Records a decided row: in the digest always, as an entry of its own when it is not PAY or changed. */
  note(r: DecidedRow): void {
    const d = r.decision;
    this.rows += 1;
    this.pending += `${r.row}\u001f${r.account ?? ''}|${r.ifsc ?? ''}\u001f${d.decision}\u001f${d.reason}\u001f${r.holder ?? ''}\n`;
    this.pendingDecisions += decisionLine(r.row, r.account, r.ifsc, d.decision, d.reason);
    if (this.pending.length >= DIGEST_CHUNK_CHARS) this.hashPending();
    const changed = r.before !== undefined && (r.before.decision !== d.decision || r.before.reason !== d.reason);
    if (!changed && (r.before !== undefined || d.decision === 'PAY')) return;
    this.entries += 1;
    this.store.audit(this.runId, 'decision', {
      by: 'vas-verify', row: r.row, line: r.line, account: r.account, ifsc: r.ifsc, holder: r.holder, status: r.status,
      reasonCode: r.reasonCode, nameMatch: r.nameMatch, nameScore: r.nameScore, requestId: r.requestId,
      decision: d.decision, reason: d.reason, before: r.before ?? null,
    });
  }

  /** The invocation's entry: what it decided, under which policy, matcher and registry, and the digest of every decided row. */
  close(context: Record<string, unknown>): void {
    this.hashPending();
    this.store.audit(this.runId, 'run', { ...context, rowsDecided: this.rows, rowEntries: this.entries, rowsDigest: this.digest.digest('hex'), decisionsDigest: this.decisionsDigest.digest('hex') });
  }

  private hashPending(): void {
    if (this.pending === '') return;
    this.digest.update(this.pending);
    this.pending = '';
    this.decisionsDigest.update(this.pendingDecisions);
    this.pendingDecisions = '';
  }
}
