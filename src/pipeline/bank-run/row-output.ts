/** A row that leaves: its name verdict, its decision, its counts, and its output record. */
import { decide, verifyReasonCode, type DecisionPolicy, type ReviewStanding } from '../../decision/index.js';
import { registryBankName, registryNote, type IfscRegistry } from '../../input/ifsc-registry.js';
import { nameIn } from '../../input/recognise.js';
import type { NameMatchResult } from '../../match/verdict.js';
import type { BankStore } from '../../state/bank-store.js';
import { holderChangedIn } from '../../state/changes.js';
import { outcomeCells, type RowOutcome } from '../columns.js';
import type { DecisionAudit } from './decision-audit.js';
import { countDecision, countNameMatch, countRow } from './summary.js';
import type { BankRunSummary, NameMatcher, Slot } from './types.js';

/** Longer than any payee name (banks keep 35–140 characters): not matched, NO_MATCH. */
export const MAX_NAME_CHARS = 1_000;

/** How well the file's payee name matches the bank's beneficiary name; undefined when there is nothing to match. */
export function nameVerdict(expected: string, beneficiary: string | null | undefined, matchNames: NameMatcher): { score: number; result: string } | undefined {
  if (!beneficiary || expected.trim() === '') return undefined;
  // A cell of megabytes is not a name, and the matcher's work grows with its length
  // (a 5 MB run of initials exhausts the heap): it cannot match, say so at no cost.
  if (expected.length > MAX_NAME_CHARS || beneficiary.length > MAX_NAME_CHARS) return { score: 0, result: 'NO_MATCH' };
  return matchNames(expected, beneficiary);
}

/** Where the run keeps each row's decision (absent for a dry run, which decides nothing). */
export interface DecisionRecorder {
  store: BankStore;
  runId: number;
  /** Payees anyone has reviewed (`account|ifsc`): only these are asked for their standing. */
  reviewed: ReadonlySet<string>;
  /** The automatic decisions' audit entries. */
  audit: DecisionAudit;
  /** A new run: none of its rows was decided before. */
  fresh: boolean;
}

export interface RowOutputContext {
  header: readonly string[];
  /** The columns the payee's name is read from (one, or a split name's parts: nameIn); none when the file has none. */
  nameColumns: readonly number[];
  /** Index of the amount column; -1 when the file has none. */
  amountColumn?: number | undefined;
  matchNames: NameMatcher | undefined;
  /** The shipped IFSC registry: bank_name where the API gave none, its note in verify_reason. Absent: not consulted. */
  ifscRegistry?: IfscRegistry | undefined;
  summary: BankRunSummary;
  /** Whether a file is written (not for a dry run). */
  writes: boolean;
  /** Whether cells right of the header are written, after the tool's columns (a workbook's); else dropped (a CSV stays rectangular). */
  keepsCellsBeside?: boolean | undefined;
  /** The decision policy (src/decision/policy.ts); absent: rows are not decided (a dry run). */
  policy?: DecisionPolicy | undefined;
  recorder?: DecisionRecorder | undefined;
}

/** The writer's FinishRow: counts the row, gives it its name verdict and decision, and returns its output record. */
export function createRowFinisher(parts: RowOutputContext): (slot: Slot, outcome: RowOutcome) => string[] | undefined {
  const { header, nameColumns, matchNames, ifscRegistry, summary, writes } = parts;
  const hasName = nameColumns.length > 0;
  return (slot, outcome) => {
    countRow(summary, outcome);
    // The payee's name as the file gives it (its parts joined), read once for the verdict and the decision.
    const name = hasName ? nameIn(slot.read ?? slot.fields, nameColumns) : null;
    if (name !== null && matchNames) {
      const match = nameVerdict(name, outcome.result?.beneficiaryName, matchNames);
      if (match) {
        outcome.nameMatch = match;
        countNameMatch(summary, match.result);
      }
    }
    if (parts.policy) decideRow(parts, parts.policy, slot, outcome, name);
    if (!writes) return undefined;
    // bank_name from the registry where the API gave none; the registry's note in verify_reason.
    const registry = ifscRegistry ? { bankName: registryBankName(slot.ifsc), note: registryNote(slot.ifsc, ifscRegistry, outcome.source !== 'local') } : undefined;
    const cells = outcomeCells(outcome, hasName, registry);
    if (slot.fields.length === header.length) return slot.fields.concat(cells);
    // A workbook's cells right of the header (a note beside a payee) are kept, after the tool's columns.
    const beside = parts.keepsCellsBeside === true ? slot.fields.slice(header.length) : [];
    return padTo(slot.fields, header.length).concat(cells, beside);
  };
}

/** The row's verify_reason_code and decision, counted, and kept in the state for review and release. */
function decideRow(parts: RowOutputContext, policy: DecisionPolicy, slot: Slot, outcome: RowOutcome, name: string | null): void {
  const { recorder, summary } = parts;
  outcome.reasonCode = verifyReasonCode(outcome.status, outcome.reason);
  const holder = outcome.result?.beneficiaryName ?? null;
  const payee = slot.payee;
  const review = recorder && payee && recorder.reviewed.has(`${payee.account}|${payee.ifsc}`) ? standing(recorder, payee, holder, name) : undefined;
  const decision = decide({ status: outcome.status, nameMatch: outcome.nameMatch?.result as NameMatchResult | undefined, holderChanged: holderChangedIn(outcome.result?.changedSince), review }, policy);
  outcome.decision = decision;
  const amount = parts.amountColumn !== undefined && parts.amountColumn >= 0 ? (slot.fields[parts.amountColumn] ?? '') : null;
  countDecision(summary, decision, amount);
  if (!recorder || outcome.status === 'SKIPPED') return;
  const row = {
    row: slot.row, line: slot.line, account: payee?.account ?? null, ifsc: payee?.ifsc ?? null, status: outcome.status, reasonCode: outcome.reasonCode,
    nameMatch: outcome.nameMatch?.result ?? null, nameScore: outcome.nameMatch?.score ?? null,
  };
  const before = recorder.store.saveRow({ ...row, runId: recorder.runId, name, amount, decision: decision.decision, decisionReason: decision.reason }, recorder.fresh);
  recorder.audit.note({ ...row, holder, requestId: outcome.requestId || outcome.result?.requestId || null, decision, before });
}

/** The payee's standing for this holder and this row's payee name (an acceptance is for the name it was given on). */
function standing(recorder: DecisionRecorder, payee: { account: string; ifsc: string }, holder: string | null, name: string | null): ReviewStanding | undefined {
  // The store's standing is decide()'s, whole (a copy of some of its fields lost the approvals once).
  return recorder.store.reviewStanding(payee.account, payee.ifsc, holder, name);
}

function padTo(fields: string[], length: number): string[] {
  if (fields.length > length) return fields.slice(0, length);
  return [...fields, ...new Array<string>(length - fields.length).fill('')];
}
