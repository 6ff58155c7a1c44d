/**
 * `vas-verify review --import FILE` (docs/ARCHITECTURE.md, "Decisions"): a run's enriched file,
 * after a person edited its `decision` column (and a note column) in a spreadsheet, read back and
 * matched to the run's rows by position — every row's account, IFSC and status checked against
 * what the run recorded, so a file that is not this run's output is refused before anything is
 * kept. Each decision the person changed from the tool's is recorded as a review
 * (recordPersonDecision, via `import`): REVIEW/HOLD → PAY accepts the holder the run got,
 * PAY/REVIEW → HOLD rejects the payee.
 */
import path from 'node:path';
import { sameReviewer, withApprovals, type Decision, type DecisionPolicy } from '../decision/index.js';
import { InputError } from '../errors.js';
import { refuseUnbackedReviews } from '../state/audit-consistency.js';
import { formatIstDate } from '../ist.js';
import { ownColumn, ownStatusColumn, readOutputRecords } from '../output/read.js';
import { checkAccount, checkIfsc } from '../pipeline/checks.js';
import { currentDecision, newerAnswerAgainst, recordedPolicyOf } from '../release/decisions.js';
import { maskLongDigits } from '../report/escape.js';
import { runOf } from '../release/run.js';
import { Reviews } from '../state/reviews.js';
import { RunRecords, type PayeeHolder } from '../state/run-record.js';
import { RunRows } from '../state/run-rows.js';
import type { Db, RunRowRecord } from '../state/types.js';
import { recordPersonDecision } from './record.js';

export interface ImportOptions {
  db: Db;
  statePath: string;
  /** Default: the newest run of the state. */
  runId?: number | undefined;
  /** The edited enriched file: CSV in any delimiter, or .xlsx. */
  file: string;
  reviewer: string;
  /** `--approvals`: different reviewers a payee needs (the run's policy's, or more). */
  approvals?: 1 | 2 | undefined;
  now: () => number;
}

/** One decision recorded from the file. */
export interface ImportedDecision {
  row: number;
  line: number;
  account: string;
  ifsc: string;
  holder: string;
  verdict: 'ACCEPTED' | 'REJECTED';
  note: string | null;
  /** The payee's decision now: PAY, or REVIEW while it awaits another reviewer, or HOLD. */
  now: Decision;
  reviewers: string[];
}

export interface ImportResult {
  runId: number;
  approvals: 1 | 2;
  recorded: ImportedDecision[];
  /** Rows whose edit was not recorded, and why (already decided so, or nothing the bank can pay). */
  ignored: { row: number; line: number; why: string }[];
  /** Payee rows read. */
  rows: number;
}

/** The words a person may write in the decision column. */
const WORDS: Record<string, Decision> = {
  PAY: 'PAY', ACCEPT: 'PAY', ACCEPTED: 'PAY', APPROVE: 'PAY', APPROVED: 'PAY',
  HOLD: 'HOLD', REJECT: 'HOLD', REJECTED: 'HOLD',
  REVIEW: 'REVIEW', '': 'REVIEW',
};

/** The person's word in a decision cell (case and spaces aside), or undefined when it is none of the words. */
export function personDecision(cell: string): Decision | undefined {
  return WORDS[cell.trim().toUpperCase()];
}

const NOTE_COLUMNS = ['review_note', 'review note', 'reviewer_note', 'reviewer note', 'note', 'notes', 'comment', 'comments', 'remarks'];

/** Where the tool's columns and the person's note are in the enriched file's header. */
export interface EnrichedColumns {
  headerLine: number;
  status: number;
  decision: number;
  /** -1 when the file has none (the tool's columns after `decision` removed). */
  reason: number;
  requestId: number;
  note: number;
}

/**
 * The enriched header: the first of the first 25 records with the tool's columns, found as the
 * filter finds them (`ownStatusColumn`, `ownColumn`: an input's own `verify_status`, from last
 * week's enriched file run again, comes before them).
 */
export function findEnrichedHeader(fields: readonly string[], line: number): EnrichedColumns | undefined {
  const status = ownStatusColumn(fields);
  const decision = ownColumn(fields, 'decision');
  if (status < 0 || decision < 0) return undefined;
  const note = fields.findIndex((f) => NOTE_COLUMNS.includes(f.trim().toLowerCase()));
  return { headerLine: line, status, decision, reason: ownColumn(fields, 'decision_reason'), requestId: ownColumn(fields, 'verify_request_id'), note };
}

export interface EditedRow {
  row: RunRowRecord;
  line: number;
  word: Decision;
  note: string | null;
  /** The payee's answer when its line was read and checked against the file's request id. */
  answer: PayeeHolder | undefined;
}

/** The account and IFSC columns: those whose cells are the payee of the first rows the run knows a payee for. */
function payeeColumns(rows: readonly { fields: string[]; run: RunRowRecord }[], before: number): { account: number; ifsc: number } | undefined {
  for (const { fields, run } of rows) {
    if (run.account === null) continue;
    const cells = fields.slice(0, before);
    const account = cells.findIndex((c) => { const a = checkAccount(c); return a.ok && a.account === run.account; });
    const ifsc = cells.findIndex((c) => { const i = checkIfsc(c); return i.ok && i.ifsc === run.ifsc; });
    if (account >= 0 && ifsc >= 0) return { account, ifsc };
  }
  return undefined;
}

/** Whether a row of the file is the run's row: its status, and its payee where the cells still read as one. */
function sameRow(fields: readonly string[], run: RunRowRecord, columns: EnrichedColumns, payee: { account: number; ifsc: number }): boolean {
  if ((fields[columns.status] ?? '').trim() !== run.status) return false;
  if (run.account === null) return true;
  // A cell a merge covers in the input is empty in the output (the run read the merge's value):
  // the other cell and the place must do.
  const ifscCell = (fields[payee.ifsc] ?? '').trim();
  const ifsc = checkIfsc(ifscCell);
  if (ifscCell !== '' && (!ifsc.ok || ifsc.ifsc !== run.ifsc)) return false;
  const accountCell = (fields[payee.account] ?? '').trim();
  if (accountCell === '') return true;
  const account = checkAccount(accountCell);
  // A spreadsheet that turned the account into 8.6E+11 no longer shows it: the IFSC and the place must do.
  // Nor does one that dropped its leading zeros (a number column).
  if (account.ok) return account.account.replace(/^0+/, '') === run.account.replace(/^0+/, '');
  return /e\+/i.test(accountCell);
}

/** Reads the whole file and matches it to the run's rows; throws before anything is recorded when it is not this run's output. */
export async function readEditedRows(db: Db, runId: number, file: string): Promise<{ edited: EditedRow[]; rows: number }> {
  const runRows = new RunRows(db);
  let columns: EnrichedColumns | undefined;
  const notOurs = (why: string) => new InputError(`${file} is not the enriched output of run ${runId} (${why}): import the file that run wrote, with only its decision and note cells edited`);
  const records = new RunRecords(db);
  const pending: { fields: string[]; line: number; run: RunRowRecord; answer: PayeeHolder | undefined }[] = [];
  let payee: { account: number; ifsc: number } | undefined;
  const edited: EditedRow[] = [];
  let row = 0;
  let read = 0;
  for await (const record of readOutputRecords(file)) {
    read += 1;
    if (!columns) {
      columns = findEnrichedHeader(record.fields, record.line);
      if (!columns && read >= 25) throw notOurs('no header with verify_status and decision columns in its first 25 lines');
      continue;
    }
    const status = (record.fields[columns.status] ?? '').trim();
    if (status === 'SKIPPED' || record.fields.every((f) => f.trim() === '')) continue;
    row += 1;
    const run = runRows.get(runId, row);
    if (!run) throw notOurs(`it has more payee rows than the run's ${row - 1}`);
    const answer = run.account === null || run.ifsc === null ? undefined : records.holder(runId, run.account, run.ifsc);
    pending.push({ fields: record.fields, line: record.line, run, answer });
    payee ??= payeeColumns(pending, columns.status);
    if (!payee && pending.length < 50) continue;
    if (!payee) throw notOurs('its account and IFSC cells are not the run\'s payees');
    for (const p of pending.splice(0)) edited.push(...checkedRow(p, columns, payee, notOurs));
  }
  if (!columns) throw notOurs('no header with verify_status and decision columns');
  if (pending.length > 0 && !payee) {
    if (pending.some((p) => p.run.account !== null)) throw notOurs('its account and IFSC cells are not the run\'s payees');
    for (const p of pending.splice(0)) edited.push(...checkedRow(p, columns, { account: -1, ifsc: -1 }, notOurs));
  }
  if (runRows.get(runId, row + 1)) throw notOurs(`it has ${row} payee rows, fewer than the run's`);
  return { edited, rows: row };
}

/**
 * Whether the row is of this run's output as the run stands now: its answer's request id (another
 * run asked the bank again), and its decision reason (the run was decided again since, e.g. a
 * resumed run re-emitted after earlier reviews): an older file's unchanged cells would read as edits.
 */
function staleness(fields: readonly string[], run: RunRowRecord, columns: EnrichedColumns, answer: PayeeHolder | undefined): string | undefined {
  const cell = (i: number) => (i >= 0 ? (fields[i] ?? '').trim() : undefined);
  const request = cell(columns.requestId);
  const known = [answer?.requestId, answer?.payeeRequestId].filter((id): id is string => !!id);
  if (request !== undefined && known.length > 0 && !known.includes(request)) return 'its answers are from another run of the same input: give that run with --run N';
  const reason = cell(columns.reason);
  if (reason !== undefined && reason !== run.decisionReason) return `the run decides this row ${run.decision} (${run.decisionReason}) now, the file says ${reason}: it was written before; import the run's newest output`;
  return undefined;
}

function checkedRow(p: { fields: string[]; line: number; run: RunRowRecord; answer: PayeeHolder | undefined }, columns: EnrichedColumns, payee: { account: number; ifsc: number }, notOurs: (why: string) => Error): EditedRow[] {
  if (!sameRow(p.fields, p.run, columns, payee)) throw notOurs(`line ${p.line} is not the run's payee row ${p.run.row}`);
  const stale = staleness(p.fields, p.run, columns, p.answer);
  if (stale) throw notOurs(`line ${p.line}: ${stale}`);
  const cell = p.fields[columns.decision] ?? '';
  const word = personDecision(cell);
  if (word === undefined) throw new InputError(`line ${p.line}: decision ${JSON.stringify(cell.slice(0, 40))} is not PAY, REVIEW or HOLD (ACCEPT and REJECT are taken too): correct it and import again; nothing was recorded`);
  if (word === p.run.decision || word === 'REVIEW') return [];
  const note = columns.note >= 0 ? (p.fields[columns.note] ?? '').trim() || null : null;
  return [{ row: p.run, line: p.line, word, note, answer: p.answer }];
}

/** Reads, checks and records the file's decisions (see the module's comment). */
export async function importReviewedFile(options: ImportOptions): Promise<ImportResult> {
  refuseUnbackedReviews(options.db, options.statePath);
  const run = runOf(options.db, options.runId, options.statePath, false);
  const policy: DecisionPolicy = withApprovals(recordedPolicyOf(run.policy, run.id).policy, options.approvals);
  const approvals = policy.approvals;
  const { edited, rows } = await readEditedRows(options.db, run.id, options.file);
  return recordEditedRows({ ...options, runId: run.id }, policy, edited, rows);
}

/**
 * Records what the rows read say, in one transaction: a bank run cannot answer a payee again
 * between the check of its answer and the record. A payee answered again since its line was read
 * (a run that committed while the file was being read) is not recorded: the file shows the answer
 * the reviewer saw, and a holder nobody saw is never accepted.
 */
export function recordEditedRows(options: ImportOptions & { runId: number }, policy: DecisionPolicy, edited: readonly EditedRow[], rows: number): ImportResult {
  const approvals = policy.approvals;
  const result: ImportResult = { runId: options.runId, approvals, recorded: [], ignored: [], rows };
  options.db.transaction(() => recordEach(options, policy, edited, result)).immediate();
  return result;
}

function recordEach(options: ImportOptions & { runId: number }, policy: DecisionPolicy, edited: readonly EditedRow[], result: ImportResult): void {
  const { approvals } = policy;
  const run = { id: options.runId };
  const records = new RunRecords(options.db);
  const reviews = new Reviews(options.db);
  for (const e of edited) {
    const r = e.row;
    const answer = r.account === null || r.ifsc === null ? undefined : records.holder(run.id, r.account, r.ifsc);
    const ignored = (why: string) => result.ignored.push({ row: r.row, line: e.line, why });
    if (r.account === null || r.ifsc === null) {
      ignored(`${e.word} not recorded: the row failed its checks (${r.reasonCode}), there is no account to decide on`);
      continue;
    }
    if (answer?.resultId !== e.answer?.resultId || answer?.holder !== e.answer?.holder) {
      ignored(`${e.word} not recorded: the bank answered this payee again while the file was being read; import the file again (or decide on the review page, which shows the new answer)`);
      continue;
    }
    if (e.word === 'PAY' && (r.status !== 'VERIFIED' || !answer?.holder)) {
      ignored(`PAY not recorded: the bank did not verify this account (${r.status}), so it cannot be paid`);
      continue;
    }
    // The release never pays on an answer a newer one contradicts (src/release/decisions.ts): an acceptance of it would say PAY for nothing.
    const newer = e.word === 'PAY' ? newerAnswerAgainst(records, run.id, r.account, r.ifsc, answer) : null;
    if (newer !== null) {
      ignored(`PAY not recorded: a newer answer than this run's names another holder or status (${maskLongDigits(newer)}): review the run that got it`);
      continue;
    }
    const holder = answer?.holder ?? '';
    const verdict = e.word === 'PAY' ? 'ACCEPTED' : 'REJECTED';
    // The standing for this row's payee name: an acceptance is for the name it was given on.
    const before = reviews.standing(r.account, r.ifsc, holder || null, r.name);
    // One person once, however the name is typed ("asha", "Asha"): src/decision/identity.ts.
    const already = before?.verdict === 'ACCEPTED' ? before.reviewers.find((who) => sameReviewer(who, options.reviewer)) : undefined;
    if (verdict === 'ACCEPTED' && already !== undefined) {
      ignored(`already accepted by ${already}`);
      continue;
    }
    // The file shows the night's decision, not the reviews since: another reviewer's rejection is not overridden unseen.
    const rejection = before?.verdict === 'REJECTED' ? before.reviews[before.reviews.length - 1] : undefined;
    if (verdict === 'ACCEPTED' && rejection !== undefined && !sameReviewer(rejection.reviewer, options.reviewer)) {
      ignored(`PAY not recorded: ${rejection.reviewer} rejected this payee on ${formatIstDate(rejection.at)} (the file does not show it): if it should be paid, accept it on the review page (vas-verify review), which shows the rejection and its note`);
      continue;
    }
    if (verdict === 'REJECTED' && before?.verdict === 'REJECTED') {
      ignored(`already rejected by ${before.reviewers.join(', ')}`);
      continue;
    }
    recordPersonDecision(options.db, {
      account: r.account, ifsc: r.ifsc, holder, verdict, reviewer: options.reviewer, note: e.note, runId: run.id, row: r.row, approvals, via: 'import',
      evidence: { file: path.resolve(options.file), line: e.line, toolDecision: r.decision, toolReason: r.decisionReason, status: r.status, nameMatch: r.nameMatch, nameScore: r.nameScore, requestId: answer?.requestId ?? null, approvals },
    }, options.now());
    const standing = reviews.standing(r.account, r.ifsc, holder || null, r.name);
    const now = currentDecision(r, answer, standing, policy).decision;
    result.recorded.push({ row: r.row, line: e.line, account: r.account, ifsc: r.ifsc, holder, verdict, note: e.note, now, reviewers: standing?.reviewers ?? [] });
  }
}
