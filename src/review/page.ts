/**
 * The review page as HTML (docs/ARCHITECTURE.md, "Decisions"): one page of the rows a run left
 * at REVIEW or HOLD, rendered on the server from the model. Pure: model in, string out. Every
 * value from the input, the bank or a person passes through escapeHtml (names in their own
 * `<bdi>`), and the page's only style and script carry the response's nonce (CSP in server.ts).
 */
import { payeeNameKey } from '../decision/index.js';
import { escapeCut, escapeHtml, isolate } from '../report/escape.js';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';
import type { ReviewRow } from './rows.js';
import type { ReviewedDecision } from '../state/review-reader.js';

export interface ReviewPageModel {
  runId: number;
  inputName: string;
  reviewer: string;
  approvals: number;
  /** Rows left at REVIEW or HOLD, by decision and reason (the filter's choices). */
  counts: { decision: ReviewedDecision; reason: string; n: number }[];
  filter: { decision?: ReviewedDecision | undefined; reason?: string | undefined };
  rows: ReviewRow[];
  /** Links to the pages before and after this one (null at either end). */
  previous: string | null;
  next: string | null;
  /** Sent back in a header by every POST of the page. */
  csrf: string;
  nonce: string;
}

const e = escapeHtml;
const name = (value: string | null) => (value === null || value === '' ? '<span class="none">—</span>' : isolate(e(value)));
const numberFormat = new Intl.NumberFormat('en-IN');

export function renderReviewPage(m: ReviewPageModel): string {
  const matching = m.counts.filter((c) => (!m.filter.decision || c.decision === m.filter.decision) && (!m.filter.reason || c.reason === m.filter.reason));
  const total = matching.reduce((sum, c) => sum + c.n, 0);
  const first = m.rows[0];
  const last = m.rows[m.rows.length - 1];
  const shown = first && last ? `lines ${first.line}–${last.line}: ${m.rows.length} of ${numberFormat.format(total)} rows` : `no rows (of ${numberFormat.format(total)})`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Review run ${m.runId} — ${e(m.inputName)}</title>
<style nonce="${e(m.nonce)}">${PAGE_STYLE}</style>
</head>
<body data-csrf="${e(m.csrf)}">
<header>
<h1>Review run ${m.runId} — ${isolate(e(m.inputName))}</h1>
<p>Reviewer <strong data-testid="reviewer">${isolate(e(m.reviewer))}</strong> · ${m.approvals === 1 ? 'one approval pays a payee' : `${m.approvals} different reviewers must accept a payee before it is paid`}
<button type="button" id="done" data-testid="done">Done</button></p>
${renderKeys()}
</header>
<main>
${renderFilter(m)}
<div class="toolbar">
<label>Note <input id="note" data-testid="note" maxlength="1000" autocomplete="off" placeholder="why (kept with the decision)"></label>
<button type="button" id="accept-selected" data-testid="accept-selected">Accept (pay)</button>
<button type="button" id="reject-selected" data-testid="reject-selected">Reject (hold)</button>
<span id="status" data-testid="status" role="status" aria-live="polite"></span>
</div>
<p class="shown" data-testid="shown">${shown}</p>
<table data-testid="rows">
<thead><tr><th><span class="sr">select</span></th><th>Line</th><th>Payee (file) · holder (bank) · why</th><th>Account</th><th>Amount</th><th>History</th><th>The run said</th><th>Now</th><th></th></tr></thead>
<tbody>
${m.rows.map(renderRow).join('\n')}
</tbody>
</table>
${renderPager(m)}
</main>
<script nonce="${e(m.nonce)}">${PAGE_SCRIPT}</script>
</body>
</html>
`;
}

function renderKeys(): string {
  return `<p class="keys" data-testid="keys">Keys: <kbd>j</kbd>/<kbd>↓</kbd> next row · <kbd>k</kbd>/<kbd>↑</kbd> previous row · <kbd>x</kbd> select ·
<kbd>a</kbd> accept (pay) · <kbd>r</kbd> reject (hold) — the selected rows, or the current one · <kbd>n</kbd> write the note ·
<kbd>/</kbd> filter by reason · <kbd>]</kbd>/<kbd>[</kbd> next/previous page · <kbd>Esc</kbd> back to the list.</p>`;
}

function renderFilter(m: ReviewPageModel): string {
  const byReason = new Map<string, number>();
  for (const c of m.counts) if (!m.filter.decision || c.decision === m.filter.decision) byReason.set(c.reason, (byReason.get(c.reason) ?? 0) + c.n);
  const byDecision = new Map<string, number>();
  for (const c of m.counts) byDecision.set(c.decision, (byDecision.get(c.decision) ?? 0) + c.n);
  const option = (value: string, label: string, chosen: string | undefined) => `<option value="${e(value)}"${chosen === value ? ' selected' : ''}>${e(label)}</option>`;
  return `<form method="get" action="/" class="filter" data-testid="filter">
<label>Decision <select name="decision" id="decision">${option('', 'REVIEW and HOLD', m.filter.decision ?? '')}${['REVIEW', 'HOLD'].map((d) => option(d, `${d} (${byDecision.get(d) ?? 0})`, m.filter.decision)).join('')}</select></label>
<label>Reason <select name="reason" id="reason" data-testid="reason">${option('', 'every reason', m.filter.reason ?? '')}${[...byReason].map(([r, n]) => option(r, `${r} (${n})`, m.filter.reason)).join('')}</select></label>
<button type="submit">Show</button>
</form>`;
}

function renderRow(r: ReviewRow): string {
  const why = r.why.length > 0 ? `<ul class="why">${r.why.map((w) => `<li>${e(w)}</li>`).join('')}</ul>` : '';
  const verdict = r.nameMatch === null ? '' : `<div class="verdict">${e(r.nameMatch)}${r.nameScore === null ? '' : ` · ${e(r.nameScore)}`}</div>`;
  const history = [
    r.changedSince ? `<div class="changed">changed since ${e(r.changedSince)}</div>` : '',
    r.history.length > 0 ? `<ul class="earlier">${r.history.map((h) => `<li>${e(h.date)} ${e(h.status)} ${name(h.holder)}</li>`).join('')}</ul>` : '',
  ].join('') || '<span class="none">no earlier check</span>';
  const reviewable = r.payee !== null;
  return `<tr class="row" tabindex="-1" data-row="${r.row}" data-line="${r.line}" data-payee="${r.payee ?? ''}" data-name-key="${e(payeeNameKey(r.name))}" data-reason="${e(r.decisionReason)}" data-seen="${e(r.seen)}" data-reviewed="${r.reviewed}" data-testid="row-${r.row}">
<td><input type="checkbox" class="sel" aria-label="select line ${r.line}"${reviewable ? '' : ' disabled'}></td>
<td class="line">${r.line}</td>
<td class="names"><div>File: <span class="name" data-testid="name">${name(r.name)}</span></div><div>Bank: <span class="holder" data-testid="holder">${name(r.holder)}</span></div>${verdict}${why}</td>
<td class="account"><div data-testid="account">${e(r.account)}</div><div>${e(r.ifsc)}</div><div>${name(r.bank)}</div><div class="branch">${name(r.branch)}</div></td>
<td class="amount" data-testid="amount">${r.amount === null ? '' : e(r.amount)}</td>
<td class="history" data-testid="history">${history}</td>
<td class="ran"><div class="decision" data-decision="${e(r.decision)}" data-testid="run-decision">${e(r.decision)}</div><div>${e(r.decisionReason)}</div><div class="status">${e(r.status)} · ${e(r.reasonCode)}</div>${r.requestId ? `<div class="request">request ${escapeCut(r.requestId, 60)}</div>` : ''}</td>
<td class="standing" data-decision="${e(r.standing.decision)}" data-testid="standing">${e(r.standing.text)}${r.standing.note ? `<div class="note">“${e(r.standing.note)}”</div>` : ''}</td>
<td class="actions">${reviewable ? `<button type="button" class="accept" aria-label="Accept line ${r.line} (pay)"${r.cannotAccept ? ` disabled title="${e(r.cannotAccept)}"` : ''}>Accept</button> <button type="button" class="reject" aria-label="Reject line ${r.line} (hold)">Reject</button>` : `<span class="none">${e(r.cannotAccept ?? '')}</span>`}<div class="msg" data-testid="msg"></div></td>
</tr>`;
}

function renderPager(m: ReviewPageModel): string {
  const link = (href: string | null, label: string, rel: string) => (href === null ? `<span class="off">${label}</span>` : `<a href="${e(href)}" rel="${rel}" id="${rel}">${label}</a>`);
  return `<nav class="pager" data-testid="pager">${link(m.previous, '← previous page', 'prev')} ${link(m.next, 'next page →', 'next')}</nav>`;
}
