/**
 * The audit trail (table audit; docs/ARCHITECTURE.md, "Decisions"): every decision, automatic or
 * by a person, appended and never changed (triggers refuse UPDATE and DELETE). Each entry's hash
 * is sha256 of the previous entry's hash and its own canonical text, so an entry changed, removed
 * or inserted by other means than this tool breaks the chain from that entry on.
 */
import { createHash } from 'node:crypto';
import type { Db } from './types.js';

/** The hash before the first entry. */
export const AUDIT_GENESIS = '0'.repeat(64);

export type AuditKind = 'decision' | 'review' | 'release' | 'run';

export interface AuditEntry {
  seq: number;
  at: number;
  runId: number | null;
  kind: AuditKind;
  /** What was decided, by whom, on what evidence (canonical JSON: keys sorted). */
  entry: Record<string, unknown>;
  prevHash: string;
  hash: string;
}

/** JSON with every object's keys sorted: the same entry always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function auditHash(prevHash: string, seq: number, at: number, runId: number | null, kind: string, entryText: string): string {
  return createHash('sha256').update(`${prevHash}\n${seq}\n${at}\n${runId ?? ''}\n${kind}\n${entryText}`).digest('hex');
}

export class AuditTrail {
  private readonly stmt;

  constructor(db: Db) {
    this.stmt = {
      last: db.prepare(`SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1`),
      insert: db.prepare(`INSERT INTO audit (seq, at, run_id, kind, entry, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?)`),
      from: db.prepare(`SELECT seq, at, run_id AS runId, kind, entry, prev_hash AS prevHash, hash FROM audit WHERE seq > ? ORDER BY seq LIMIT ?`),
      releases: db.prepare(`SELECT seq, at, entry FROM audit WHERE kind = 'release' AND run_id = ? ORDER BY seq`),
    };
  }

  /** The run's earlier releases (the audit trail's release entries): when, and the sha256 of what they wrote. */
  releasesOf(runId: number): { seq: number; at: number; sha256: string }[] {
    return (this.stmt.releases.all(runId) as { seq: number; at: number; entry: string }[]).map((r) => ({ seq: r.seq, at: r.at, sha256: String((JSON.parse(r.entry) as { sha256?: unknown }).sha256 ?? '') }));
  }

  /** Appends one entry; call inside the transaction that makes the decision, so both or neither are kept. */
  append(at: number, runId: number | null, kind: AuditKind, entry: Record<string, unknown>): AuditEntry {
    const last = this.stmt.last.get() as { seq: number; hash: string } | undefined;
    const seq = (last?.seq ?? 0) + 1;
    const prevHash = last?.hash ?? AUDIT_GENESIS;
    const text = canonicalJson(entry);
    const hash = auditHash(prevHash, seq, at, runId, kind, text);
    this.stmt.insert.run(seq, at, runId, kind, text, prevHash, hash);
    return { seq, at, runId, kind, entry, prevHash, hash };
  }

  /**
   * Reads the whole chain in order and checks it: each entry's prev_hash is the hash before it,
   * its hash is recomputed from its fields, its seq follows the one before. `problems` names
   * each break (the first entry that does not hold, and why).
   */
  *entries(batch = 1_000): Generator<{ entry: AuditEntry; problem: string | undefined }> {
    let after = 0;
    let expectedPrev = AUDIT_GENESIS;
    let expectedSeq = 1;
    for (;;) {
      const rows = this.stmt.from.all(after, batch) as { seq: number; at: number; runId: number | null; kind: AuditKind; entry: string; prevHash: string; hash: string }[];
      if (rows.length === 0) return;
      for (const row of rows) {
        let problem: string | undefined;
        if (row.seq !== expectedSeq) problem = `entry ${expectedSeq}${row.seq > expectedSeq + 1 ? `–${row.seq - 1}` : ''} is missing`;
        else if (row.prevHash !== expectedPrev) problem = `entry ${row.seq} does not follow entry ${row.seq - 1} (an entry before it was changed or removed)`;
        else if (auditHash(row.prevHash, row.seq, row.at, row.runId, row.kind, row.entry) !== row.hash) problem = `entry ${row.seq} was changed after it was written`;
        let parsed: Record<string, unknown>;
        try {
          parsed = JSON.parse(row.entry) as Record<string, unknown>;
        } catch {
          parsed = {};
          problem ??= `entry ${row.seq} is not JSON`;
        }
        yield { entry: { ...row, entry: parsed }, problem };
        expectedPrev = row.hash;
        expectedSeq = row.seq + 1;
        after = row.seq;
      }
    }
  }
}
