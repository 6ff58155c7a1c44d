/**
 * What the page leads with (docs/ARCHITECTURE.md, "Decisions"): the banner that names what to do
 * ("12 payees held, 30 to review"), then the held list, the review list and the payees the bank
 * did not verify — each row with the file's line, the payee name of the file, the bank's holder,
 * why, the name verdict and the amount. Pure; every value escaped, every name in its own <bdi>.
 */
import { DECISION_REASON_MEANING, VERIFY_REASON_CODE_MEANING } from '../decision/index.js';
import { escapeCut, escapeHtml, isolate } from './escape.js';
import { LIST_FILTERS } from './filter.js';
import { formatCount, formatRupees, formatTime, plural } from './format.js';
import { codeTag, lineCell, rest, table } from './html-parts.js';
import type { CappedList, DecisionRow, RunDecisions, RunReport } from './model.js';
import type { ChangedRow, DecisionsSinceRun } from './standing.js';

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
    + `<p class="sub2">${escapeHtml(decisionAdvice(d))}</p>${sinceLine(report.since)}${finality}</div>`;
}

/** Who changed the decisions since the run, and when, as HTML (each name escaped and isolated): " (Asha Rao, 26 Nov 2026, 10:05 IST – 26 Nov 2026, 11:40 IST)". */
function byWhomWhen(since: DecisionsSinceRun): string {
  const who = since.reviewers.map((name) => isolate(escapeCut(name, 80)));
  const [first, last] = [formatTime(since.firstAt), formatTime(since.lastAt)];
  const when = since.firstAt === null ? [] : [escapeHtml(first === last ? first : `${first} – ${last}`)];
  const parts = [...who, ...when];
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/** The banner's line on the decisions changed since the run (the counts above are of the decisions now); none when nothing changed. */
function sinceLine(since: DecisionsSinceRun | null): string {
  if (!since || since.byReview + since.byNewerAnswer === 0) return '';
  const parts = [
    since.byReview > 0 ? `${escapeHtml(`${plural(since.byReview, 'decision')} changed by review`)}${byWhomWhen(since)}` : '',
    since.byNewerAnswer > 0 ? escapeHtml(`${plural(since.byNewerAnswer, 'payee')} held since: a newer answer contradicts the run's`) : '',
  ].filter(Boolean);
  return `<p class="sub2" data-testid="as-reviewed">Decisions as they stand now, as the release takes them: ${parts.join('; ')}.</p>`;
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
  return `${codeTag(r.decisionReason, 'd')}<br><small>${escapeHtml(meaning)}</small>${detail}${ranAsNote(r)}`;
}

/** For a row decided otherwise since the run: the run's decision, and why it changed ("run: REVIEW NAME_CLOSE → rejected by ravi"). */
function ranAsNote(r: DecisionRow): string {
  if (!r.ranAs) return '';
  const why = r.standing ? ` → ${isolate(escapeCut(r.standing, 200))}` : '';
  return `<br><small data-testid="ran-as" data-decision="${escapeHtml(r.ranAs.decision)}">run: ${escapeHtml(r.ranAs.decision)} ${escapeHtml(r.ranAs.reason)}${why}</small>`;
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
  return `<section id="decisions"><h2>What to do</h2>${decisionCounts(d)}${unreadable}${sincePart(report.since)}${parts.map((p) => listPart(report, p, withAmount)).join('\n')}${notVerifiedPart(report, d)}</section>`;
}

function changedRowCells(r: ChangedRow): string[] {
  const who = r.at === null ? '' : `<br><small>${escapeHtml(formatTime(r.at))}</small>`;
  const note = r.note === null || r.note === '' ? '' : `<br><small>note: ${isolate(escapeCut(r.note, 160))}</small>`;
  return [
    lineCell(r.line, r.row), nameCell(r.name),
    `<span class="mono">${escapeHtml(r.account)}</span><br><span class="mono small">${escapeHtml(r.ifsc)}</span>`,
    `<span data-testid="ran" data-decision="${escapeHtml(r.ranAs.decision)}">${codeTag(r.ranAs.decision, 'd')}</span><br><small>${escapeHtml(r.ranAs.reason)}</small>`,
    `<span data-testid="now" data-decision="${escapeHtml(r.decision)}">${codeTag(r.decision, 'd')}</span><br><small>${escapeHtml(r.reason)}</small>`,
    `${isolate(escapeCut(r.words, 200))}${who}${note}`,
  ];
}

/**
 * The rows decided otherwise since the run (`vas-verify report` after reviews): the counts and the
 * lists of this section are of the decisions now; each of these with the run's decision and why.
 */
function sincePart(since: DecisionsSinceRun | null): string {
  if (!since || since.rows.total === 0) return '';
  const head = `<h3 id="since">Decided otherwise since the run <span class="count" data-testid="since-count">${formatCount(since.rows.total)}</span></h3>`;
  const review = since.byReview > 0 ? `<p data-testid="changed-by-review" data-count="${since.byReview}">${escapeHtml(`${plural(since.byReview, 'decision')} changed by review since the run`)}${byWhomWhen(since)}.</p>` : '';
  const newer = since.byNewerAnswer > 0
    ? `<p data-testid="changed-by-newer" data-count="${since.byNewerAnswer}">${escapeHtml(`${plural(since.byNewerAnswer, 'payee')} the run paid ${since.byNewerAnswer === 1 ? 'is' : 'are'} held now: a newer answer in the state names another holder or status (the release holds ${since.byNewerAnswer === 1 ? 'it' : 'them'}).`)}</p>`
    : '';
  const file = '<p class="muted small">The counts and lists above and below are of the decisions now. The enriched file keeps the run\'s decisions (a filter command of a list below reads it); <code class="cmd">vas-verify release --exceptions FILE</code> writes the payees left out now.</p>';
  const more = since.rows.total - since.rows.items.length;
  const rest = more > 0 ? `<p class="more">…and ${formatCount(more)} more row(s) (<code class="cmd">vas-verify audit</code> lists every review).</p>` : '';
  return `${head}${review}${newer}${file}${table('since', ['Line', 'Payee (file)', 'Account', 'The run decided', 'Now', 'Why'], since.rows.items.map(changedRowCells))}${rest}`;
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
