/**
 * What the page leads with (docs/ARCHITECTURE.md, "Decisions"): the banner that names what to do
 * ("12 payees held, 30 to review"), then the held list, the review list and the payees the bank
 * did not verify — each row with the file's line, the payee name of the file, the bank's holder,
 * why, the name verdict and the amount. Pure; every value escaped, every name in its own <bdi>.
 */
import { DECISION_REASON_MEANING, VERIFY_REASON_CODE_MEANING } from '../decision/index.js';
import { escapeCut, escapeHtml, isolate } from './escape.js';
import { LIST_FILTERS } from './filter.js';
import { formatCount, formatRupees, plural } from './format.js';
import { codeTag, lineCell, rest, table } from './html-parts.js';
import type { CappedList, DecisionRow, RunDecisions, RunReport } from './model.js';

/** Where the file has amounts: " (₹ 4,52,000)". */
function amountOf(d: RunDecisions, decision: 'HOLD' | 'REVIEW' | 'PAY'): string {
  return d.amounts ? ` (${formatRupees(d.amounts[decision])})` : '';
}

/** The banner's headline: what to do with the payees ("12 payees held, 30 to review — ₹ 4,52,000 held, …"), or that every one can be paid. */
export function decisionHeadline(d: RunDecisions): string {
  const { HOLD: held, REVIEW: review, PAY: pay } = d.decisions;
  if (held + review === 0) return `All ${plural(pay, 'payee')} can be paid${amountOf(d, 'PAY')}.`;
  const counts = [held > 0 ? `${plural(held, 'payee')} held` : '', review > 0 ? `${held > 0 ? formatCount(review) : plural(review, 'payee')} to review` : ''];
  const amounts = d.amounts ? [held > 0 ? `${formatRupees(d.amounts.HOLD)} held` : '', review > 0 ? `${formatRupees(d.amounts.REVIEW)} to review` : ''] : [];
  const join = (parts: string[]) => parts.filter(Boolean).join(', ');
  return amounts.length > 0 ? `${join(counts)} — ${join(amounts)}.` : `${join(counts)}.`;
}

/** What to do, below the headline. */
function decisionAdvice(d: RunDecisions): string {
  const { HOLD: held, REVIEW: review, PAY: pay } = d.decisions;
  if (held + review === 0) return 'Every payee row is PAY.';
  const what = [held > 0 ? 'do not pay the held ones' : '', review > 0 ? 'check the ones to review before paying them' : ''].filter(Boolean).join('; ');
  const payable = pay === 0 ? 'No payee is PAY' : `Pay only the ${plural(pay, 'payee')} marked PAY${amountOf(d, 'PAY')}`;
  return `${payable}; ${what}. The lists below say why.`;
}

/**
 * The banner: the decision first. Green only when every payee is PAY and every row final; red
 * while payees are held; amber for payees to review or an unfinished run.
 */
export function decisionBanner(report: RunReport, d: RunDecisions, unfinished: string): string {
  const { HOLD: held, REVIEW: review } = d.decisions;
  const tone = held > 0 ? 'hold' : review > 0 || !report.finished ? 'warn' : 'ok';
  const finality = report.finished ? '<p class="sub2">Every row is final.</p>' : `<p class="sub2">${unfinished}</p>`;
  // Rows the run has not written out yet (it stopped, or has not read its whole input) have no decision: the counts are of the others.
  const partial = report.invocation?.stopped != null || report.run.totalRows === null || report.action.notReached > 0;
  return `<div class="banner ${tone}" data-testid="state" data-finished="${report.finished}" data-hold="${held}" data-review="${review}">`
    + `<p class="headline" data-testid="decision">${partial ? 'So far: ' : ''}${escapeHtml(decisionHeadline(d))}</p>`
    + `<p class="sub2">${escapeHtml(decisionAdvice(d))}</p>${finality}</div>`;
}

function nameCell(text: string | null): string {
  return text === null || text === '' ? '<span class="muted">—</span>' : isolate(escapeCut(text, 80));
}

function accountCell(r: DecisionRow): string {
  return r.account === null ? '<span class="muted">—</span>' : `<span class="mono">${escapeHtml(r.account)}</span><br><span class="mono small">${escapeHtml(r.ifsc ?? '')}</span>`;
}

function verdictCell(r: DecisionRow): string {
  return r.nameMatch === null ? '<span class="muted">—</span>' : `${codeTag(r.nameMatch)} ${r.nameScore ?? ''}`;
}

function amountCell(cell: string | null, value: number | null): string {
  if (cell === null) return '';
  return value === null ? `<span class="muted">${isolate(escapeCut(cell, 40))}</span>` : escapeHtml(formatRupees(value));
}

/** verify_reason as the bank or the run gave it; for a row that failed its local checks, what its code means. */
function reasonText(r: DecisionRow): string {
  return r.reason ?? (VERIFY_REASON_CODE_MEANING as Readonly<Record<string, string>>)[r.reasonCode] ?? '';
}

function whyCell(r: DecisionRow): string {
  const meaning = (DECISION_REASON_MEANING as Readonly<Record<string, string>>)[r.decisionReason] ?? '';
  const detail = r.status === 'VERIFIED' ? '' : `<br><small>${escapeHtml(r.reasonCode)}: ${isolate(escapeCut(reasonText(r), 160))}</small>`;
  return `${codeTag(r.decisionReason, 'd')}<br><small>${escapeHtml(meaning)}</small>${detail}`;
}

/** A list of decided rows: line, payee (file), holder (bank), why, name verdict, amount. */
function decisionTable(testid: string, list: CappedList<DecisionRow>, withAmount: boolean): string {
  const head = ['Line', 'Payee (file)', 'Holder (bank)', 'Account', 'Why', 'Name match', ...(withAmount ? ['Amount'] : [])];
  const rows = list.items.map((r) => [
    lineCell(r.line, r.row), nameCell(r.name), nameCell(r.holder), accountCell(r), whyCell(r), verdictCell(r),
    ...(withAmount ? [amountCell(r.amount, r.amountValue)] : []),
  ]);
  return table(testid, head, rows);
}

interface ListPart {
  id: string;
  title: string;
  intro: string;
  none: string;
  list: CappedList<DecisionRow>;
  where: readonly string[];
}

function listPart(report: RunReport, part: ListPart, withAmount: boolean): string {
  const head = `<h3 id="${part.id}">${escapeHtml(part.title)} <span class="count" data-testid="${part.id}-count">${formatCount(part.list.total)}</span></h3>`;
  if (part.list.total === 0) return `${head}<p class="muted">${escapeHtml(part.none)}</p>`;
  return `${head}<p>${escapeHtml(part.intro)}</p>${decisionTable(part.id, part.list, withAmount)}${rest(part.list, part.where, report.outputName, 'rows')}`;
}

/** The held list, the review list, and the payees the bank did not verify: the first section after the banner. */
export function decisionSection(report: RunReport, d: RunDecisions): string {
  const withAmount = d.amounts !== null;
  const parts: ListPart[] = [
    { id: 'held', title: 'Held: do not pay', intro: 'Each of these payees is held: the account is not the payee the file names, is not verified, or has no final answer yet.', none: 'No payee is held.', list: d.held, where: LIST_FILTERS.held },
    { id: 'review', title: 'To review: check before paying', intro: 'A person should look at each of these before it is paid (vas-verify review records what they decide).', none: 'No payee waits for a review.', list: d.review, where: LIST_FILTERS.review },
  ];
  const unreadable = d.amounts && d.amounts.unreadable > 0 ? `<p class="muted small">${plural(d.amounts.unreadable, 'amount cell')} could not be read as an amount and ${d.amounts.unreadable === 1 ? 'is' : 'are'} not in the totals.</p>` : '';
  return `<section id="decisions"><h2>What to do</h2>${decisionCounts(d)}${unreadable}${parts.map((p) => listPart(report, p, withAmount)).join('\n')}${notVerifiedPart(report, d)}</section>`;
}

function decisionCounts(d: RunDecisions): string {
  const cells = (['HOLD', 'REVIEW', 'PAY'] as const).map((k) => `<span class="key" data-testid="decisions-${k}" data-count="${d.decisions[k]}">${codeTag(k, 'd')} ${formatCount(d.decisions[k])}${amountOf(d, k)}</span>`);
  const reasons = Object.entries(d.reasons).sort((x, y) => y[1] - x[1]).map(([k, v]) => `<span class="key" data-testid="reason-${escapeHtml(k)}" data-count="${v}">${escapeHtml(k)} ${formatCount(v)}</span>`);
  return `<p class="legend">${cells.join('')}</p><p class="legend small">${reasons.join('')}</p>`;
}

/** NOT_VERIFIED and INVALID payees by name, with their verify_reason_code and reason: the payee must give other details. */
function notVerifiedPart(report: RunReport, d: RunDecisions): string {
  const list = d.notVerified;
  const head = `<h3 id="not-verified">Not verified or invalid <span class="count" data-testid="not-verified-count">${formatCount(list.total)}</span></h3>`;
  if (list.total === 0) return `${head}<p class="muted">The bank verified every account it was asked about, and every row passed its checks.</p>`;
  const rows = list.items.map((r) => [lineCell(r.line, r.row), nameCell(r.name), accountCell(r), codeTag(r.status), escapeHtml(r.reasonCode), isolate(escapeCut(reasonText(r), 160))]);
  return `${head}<p>Ask these payees for their account details again: the account could not be verified, or the file's account number or IFSC is wrong.</p>`
    + table('not-verified', ['Line', 'Payee (file)', 'Account', 'Status', 'verify_reason_code', 'Reason'], rows)
    + rest(list, LIST_FILTERS.notVerified, report.outputName, 'rows');
}

/** Verified rows whose name does not match: with decisions, the count, and the ones a policy still pays. */
export function mismatchPart(report: RunReport, d: RunDecisions): string {
  const head = `<h3 id="mismatched">Verified, name does not match <span class="count" data-testid="mismatched-count">${formatCount(d.mismatched)}</span></h3>`;
  if (d.mismatched === 0) return `${head}<p class="muted">None: every verified account's holder matches the payee name well enough.</p>`;
  const paid = d.mismatchedPaid;
  if (paid.total === 0) return `${head}<p>The account exists, but the bank's holder is not the payee the file names. None of them is PAY: each is in the held or review list above.</p>`;
  return `${head}<p>The decision policy pays <b>${formatCount(paid.total)}</b> of them although the holder's name does not match: check these before paying.</p>`
    + decisionTable('mismatched-paid', paid, d.amounts !== null)
    + rest(paid, LIST_FILTERS.mismatchedPaid, report.outputName, 'rows');
}
