/**
 * The run report as one self-contained HTML page: inline CSS, charts drawn as inline SVG, no
 * script, and a Content-Security-Policy that forbids loading anything, so it opens offline in
 * any browser, prints on A4 and reads on a phone. Pure: model in, string out. Every value from
 * the input or the API goes through escapeHtml.
 */
import { escapeCut, escapeHtml, isolate } from './escape.js';
import { LIST_FILTERS } from './filter.js';
import { formatClock, formatCount, formatDate, formatDuration, formatMoney, formatTime } from './format.js';
import { dl, lineCell, rest, table } from './html-parts.js';
import { NAME_VERDICTS, type ActionItem, type CappedList, type ReportStatus, type RunReport } from './model.js';
import { decisionBanner, decisionSection, mismatchPart } from './render-decisions.js';

export { formatCount, formatDuration, formatTime } from './format.js';

export const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

const STATUS_COLOURS: Record<ReportStatus, string> = {
  VERIFIED: '#1a7f4b',
  NOT_VERIFIED: '#c77700',
  INVALID: '#6b7280',
  DEFERRED: '#2f6fca',
  FAILED: '#c62828',
  UNCONFIRMED: '#7b3fb5',
  SKIPPED: '#cbd5e1',
  PENDING: '#a3acb9',
  IN_FLIGHT: '#a3acb9',
};

const VERDICT_COLOURS: Record<string, string> = {
  DIRECT_MATCH: '#1a7f4b',
  GOOD_PARTIAL_MATCH: '#5aa469',
  MODERATE_PARTIAL_MATCH: '#d5a021',
  POOR_PARTIAL_MATCH: '#e06c2c',
  NO_MATCH: '#c62828',
};

const STATUS_MEANING: Record<ReportStatus, string> = {
  VERIFIED: 'the bank confirmed the account',
  NOT_VERIFIED: 'the bank did not confirm it',
  INVALID: 'bad account number or IFSC; never paid for',
  DEFERRED: 'daily limit reached; tried again the next day',
  FAILED: 'the call failed; re-run with --resume',
  UNCONFIRMED: 'a penny-drop answer was lost; check before re-sending',
  SKIPPED: 'not a payee row (blank, a total, a repeated header, a note): copied through, never called',
  PENDING: 'not reached: the run stopped first',
  IN_FLIGHT: 'in flight when the run stopped',
};

const AVOIDED_LABELS: Record<string, string> = {
  local: 'failed local checks',
  duplicate: 'duplicate rows',
  reuse: 'reused earlier result',
  deferral: 'deferred (daily limit)',
  hybrid: 'hybrid: penny-less sufficed',
};

const EXIT_MEANING: Record<number, string> = {
  0: 'every row is final',
  1: 'fatal: the run stopped (rows stay resumable)',
  2: 'usage or input error',
  3: 'some rows are not final: re-run with --resume later',
  4: 'every row is final, but payees are held or to review (--fail-on): a person must look before the payouts',
};

function binLabel(binMs: number): string {
  if (binMs % 86_400_000 === 0) return `${binMs / 86_400_000} d`;
  if (binMs % 3_600_000 === 0) return `${binMs / 3_600_000} h`;
  if (binMs % 60_000 === 0) return `${binMs / 60_000} min`;
  return binMs % 1000 === 0 ? `${binMs / 1000} s` : `${binMs} ms`;
}

// ---- charts (inline SVG; text inside is escaped like everything else) ----

interface Bar {
  key: string;
  label: string;
  value: number;
  colour: string;
  note?: string;
}

/** Horizontal bars with their labels and counts; `testid` marks the chart for tests. */
function barChart(testid: string, bars: readonly Bar[], title: string): string {
  const rowH = 30;
  const labelW = 200;
  const countW = 110;
  const width = 640;
  const barMax = width - labelW - countW;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const total = bars.reduce((a, b) => a + b.value, 0);
  const height = bars.length * rowH + 6;
  const rows = bars
    .map((b, i) => {
      const y = i * rowH + 4;
      const w = b.value === 0 ? 0 : Math.max(2, Math.round((b.value / max) * barMax));
      const pct = total === 0 ? 0 : (b.value / total) * 100;
      return `<g data-key="${escapeHtml(b.key)}" data-count="${b.value}">`
        + `<text x="${labelW - 8}" y="${y + 17}" text-anchor="end" class="lbl">${escapeHtml(b.label)}</text>`
        + `<rect x="${labelW}" y="${y + 3}" width="${barMax}" height="${rowH - 10}" rx="3" fill="#eef1f5"/>`
        + `<rect x="${labelW}" y="${y + 3}" width="${w}" height="${rowH - 10}" rx="3" fill="${b.colour}"><title>${escapeHtml(b.label)}: ${formatCount(b.value)}</title></rect>`
        + `<text x="${labelW + barMax + 8}" y="${y + 17}" class="num">${formatCount(b.value)}<tspan class="pct"> ${pct >= 0.05 || b.value === 0 ? pct.toFixed(1) : '<0.1'}%</tspan></text>`
        + `</g>`;
    })
    .join('');
  return `<svg class="chart" data-testid="${escapeHtml(testid)}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(title)}" preserveAspectRatio="xMinYMin meet"><title>${escapeHtml(title)}</title>${rows}</svg>`;
}

interface Series {
  key: string;
  label: string;
  colour: string;
  values: readonly number[];
}

/** Stacked columns over time (the timeline's bins), with an optional line (retries) on the same scale. */
function timeChart(testid: string, title: string, report: RunReport, stacked: readonly Series[], line: Series | null): string {
  const bins = report.timeline.bins;
  const width = 640;
  const height = 200;
  const left = 44;
  const bottom = 24;
  const top = 10;
  const plotW = width - left - 10;
  const plotH = height - bottom - top;
  const totals = bins.map((_, i) => stacked.reduce((a, s) => a + (s.values[i] ?? 0), 0));
  const max = Math.max(1, ...totals, ...(line ? line.values : []));
  const colW = plotW / Math.max(1, bins.length);
  const parts: string[] = [];
  for (const frac of [0, 0.5, 1]) {
    const y = top + plotH - frac * plotH;
    parts.push(`<line x1="${left}" x2="${width - 10}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}" stroke="#dde2e8"/>`);
    parts.push(`<text x="${left - 6}" y="${(y + 4).toFixed(1)}" text-anchor="end" class="axis">${formatCount(Math.round(max * frac))}</text>`);
  }
  bins.forEach((bin, i) => {
    let y = top + plotH;
    for (const s of stacked) {
      const v = s.values[i] ?? 0;
      if (v === 0) continue;
      const h = Math.max(1, (v / max) * plotH);
      y -= h;
      parts.push(`<rect x="${(left + i * colW + 1).toFixed(1)}" y="${y.toFixed(1)}" width="${Math.max(1, colW - 2).toFixed(1)}" height="${h.toFixed(1)}" fill="${s.colour}"><title>${escapeHtml(formatTime(bin.start))}: ${escapeHtml(s.label)} ${formatCount(v)}</title></rect>`);
    }
  });
  if (line && line.values.some((v) => v > 0)) {
    const points = line.values.map((v, i) => `${(left + i * colW + colW / 2).toFixed(1)},${(top + plotH - (v / max) * plotH).toFixed(1)}`).join(' ');
    parts.push(`<polyline points="${points}" fill="none" stroke="${line.colour}" stroke-width="2"/>`);
  }
  const first = bins[0];
  const last = bins[bins.length - 1];
  if (first && last) {
    parts.push(`<text x="${left}" y="${height - 6}" class="axis">${escapeHtml(formatClock(first.start))}</text>`);
    parts.push(`<text x="${width - 10}" y="${height - 6}" text-anchor="end" class="axis">${escapeHtml(formatClock(last.start + report.timeline.binMs))}</text>`);
  }
  const legend = [...stacked, ...(line ? [line] : [])]
    .map((s) => `<span class="key"><i style="background:${s.colour}"></i>${escapeHtml(s.label)} ${formatCount(s.values.reduce((a, b) => a + b, 0))}</span>`)
    .join('');
  return `<svg class="chart" data-testid="${escapeHtml(testid)}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(title)}" preserveAspectRatio="xMinYMin meet"><title>${escapeHtml(title)} per ${escapeHtml(binLabel(report.timeline.binMs))}</title>${parts.join('')}</svg><p class="legend">${legend}<span class="muted">one column per ${escapeHtml(binLabel(report.timeline.binMs))}</span></p>`;
}

// ---- tables ----

function payeeCells(item: { row: number; line: number | null; account: string; ifsc: string }): string[] {
  return [lineCell(item.line, item.row), `<span class="mono">${escapeHtml(item.account)}</span>`, `<span class="mono">${escapeHtml(item.ifsc)}</span>`];
}

function actionTable(testid: string, list: CappedList<ActionItem>, extra: (item: ActionItem) => string[], head: readonly string[]): string {
  if (list.total === 0) return '';
  return table(testid, ['Line', 'Account', 'IFSC', ...head], list.items.map((item) => [...payeeCells(item), ...extra(item)]));
}

// ---- the page, one section at a time ----

function unfinishedWhy(report: RunReport): string {
  const inv = report.invocation;
  if (inv?.stopped) return `The run stopped early (${escapeHtml(inv.message ?? inv.stopped)}): this page shows what is known so far.`;
  if (report.action.notReached > 0 || report.run.totalRows === null) {
    return `The run is unfinished: ${formatCount(report.action.notReached)} payee(s) were not answered yet${report.run.totalRows === null ? ' and the input was not read to the end' : ''}. This page shows what is known so far.`;
  }
  const p = report.payeeStatuses;
  return `${formatCount(p.DEFERRED + p.FAILED + p.UNCONFIRMED)} payee(s) are not final yet (deferred, failed or unconfirmed).`;
}

function unfinishedText(report: RunReport): string {
  return `<b>Unfinished.</b> ${unfinishedWhy(report)} Continue with <code class="cmd">${escapeHtml(report.resumeCommand)}</code>`;
}

/**
 * The banner names what to do (render-decisions.ts). A run before decisions were kept says only
 * whether it is finished.
 */
function banner(report: RunReport): string {
  if (report.decisions) return decisionBanner(report, report.decisions, unfinishedText(report));
  return report.finished
    ? `<div class="banner ok" data-testid="state" data-finished="true"><b>Finished.</b> Every row is final.</div>`
    : `<div class="banner warn" data-testid="state" data-finished="false">${unfinishedText(report)}</div>`;
}

function needAction(report: RunReport): number {
  const p = report.payeeStatuses;
  return p.DEFERRED + p.FAILED + p.UNCONFIRMED;
}

interface Kpi {
  label: string;
  value: number | null;
  id: string;
  cls: string;
}

function kpis(report: RunReport): string {
  const { statuses } = report;
  const action = needAction(report);
  const changed = report.changedHolders.total;
  const d = report.decisions;
  const bad = (n: number | null) => ((n ?? 0) > 0 ? 'bad' : '');
  const figures: Kpi[] = d
    ? [
      { label: 'Held', value: d.decisions.HOLD, id: 'hold', cls: bad(d.decisions.HOLD) },
      { label: 'To review', value: d.decisions.REVIEW, id: 'review', cls: d.decisions.REVIEW > 0 ? 'warn' : '' },
      { label: 'Pay', value: d.decisions.PAY, id: 'pay', cls: 'good' },
    ]
    : [
      { label: 'Verified', value: statuses.VERIFIED, id: 'verified', cls: 'good' },
      { label: 'Verified, name does not match', value: report.atRisk?.total ?? null, id: 'at-risk', cls: bad(report.atRisk?.total ?? null) },
    ];
  return [
    { label: report.statusUnit === 'rows' ? 'Rows' : 'Payees', value: Object.values(statuses).reduce((a, b) => a + b, 0), id: 'total', cls: '' },
    ...figures,
    { label: 'Holder changed', value: changed, id: 'changed', cls: bad(changed) },
    { label: 'No final answer', value: action, id: 'action', cls: bad(action) },
  ]
    .map((k) => `<div class="kpi ${k.cls}" data-testid="kpi-${k.id}"><div class="v">${k.value === null ? '—' : formatCount(k.value)}</div><div class="l">${escapeHtml(k.label)}</div></div>`)
    .join('');
}

const MODE_LABELS: Record<string, string> = {
  pl: 'pl — penny-less (no deposit)',
  pd: 'pd — penny-drop (one-rupee deposit)',
  hybrid: 'hybrid — penny-drop only where penny-less said NOT_VERIFIED',
};

function exitCodeFact(report: RunReport): string {
  const code = report.invocation?.exitCode ?? null;
  if (code === null) return report.invocation ? 'none recorded: the run was killed before it could record its end (or is still running)' : 'not recorded by the version that ran it';
  return `<b data-testid="exit-code">${code}</b> — <span data-testid="exit-meaning">${escapeHtml(EXIT_MEANING[code] ?? 'unknown')}</span>`;
}

function durationFact(report: RunReport): string {
  const inv = report.invocation;
  if (inv?.durationMs !== null && inv?.durationMs !== undefined) return `${escapeHtml(formatDuration(inv.durationMs))} (the last invocation)`;
  return `${escapeHtml(formatDuration(report.run.updatedAt - report.run.startedAt))} first to last write`;
}

function runFacts(report: RunReport): Array<[string, string]> {
  const r = report.run;
  const inv = report.invocation;
  return [
    ['Input file', `<span class="mono">${isolate(escapeHtml(r.inputName))}</span>`],
    ['Fingerprint', `<span class="mono">${escapeCut(r.fingerprint, 24)}</span>`],
    ['Mode', escapeHtml(MODE_LABELS[r.mode] ?? r.mode)],
    ['Output', report.outputName === null ? 'not recorded' : `<span class="mono">${escapeHtml(report.outputName)}</span>`],
    ['Started', escapeHtml(formatTime(r.startedAt))],
    [report.finished ? 'Finished' : 'Last activity', escapeHtml(formatTime(inv?.finishedAt ?? r.updatedAt))],
    ['Duration', durationFact(report)],
    ['Resumed', inv ? (inv.resumed ? 'yes: continued an earlier run of this input' : 'no: a new run') : 'not recorded'],
    ['Exit code', exitCodeFact(report)],
    ['Rows in the input', r.totalRows === null ? 'not known yet (not read to the end)' : formatCount(r.totalRows)],
    ['IFSC registry', `<span data-testid="registry">${escapeHtml(report.registry ?? 'not recorded')}</span>`],
    ['Tool version', `<span data-testid="tool-version">vas-verify ${escapeHtml(report.runToolVersion ?? 'unknown')}</span>${report.runToolVersion === report.toolVersion ? '' : ` (page by ${escapeHtml(report.toolVersion)})`}`],
    ['Run id', `${r.runId} (state: ${escapeHtml(r.stateStatus)})`],
  ];
}

function statusSection(report: RunReport): string {
  const { statuses } = report;
  const noun = report.statusUnit === 'rows' ? 'Rows' : 'Payees';
  const order: ReportStatus[] = ['VERIFIED', 'NOT_VERIFIED', 'INVALID', 'DEFERRED', 'FAILED', 'UNCONFIRMED', 'SKIPPED', 'PENDING'];
  const bars = order
    // Rows that are not payees are counted when the run recorded its rows (the state keeps no payee for them).
    .filter((s) => (s !== 'PENDING' || statuses.PENDING + statuses.IN_FLIGHT > 0) && (s !== 'SKIPPED' || report.statusUnit === 'rows'))
    .map((s) => ({ key: s, label: s === 'PENDING' ? 'NOT REACHED' : s, value: s === 'PENDING' ? statuses.PENDING + statuses.IN_FLIGHT : statuses[s], colour: STATUS_COLOURS[s] }));
  const legend = bars.map((b) => `<li><b>${escapeHtml(b.label)}</b>: ${escapeHtml(STATUS_MEANING[b.key as ReportStatus])}</li>`).join('');
  return `<section id="statuses"><h2>${noun} by status</h2>
${barChart('status-chart', bars, `${noun} by status`)}
<ul class="legend-list">${legend}</ul></section>`;
}

/** Verified rows whose name does not match: from the decisions where the state keeps them, else from the enriched file. */
function atRiskPart(report: RunReport): string {
  if (report.decisions) return mismatchPart(report, report.decisions);
  const list = report.atRisk;
  if (!list) return '';
  const head = `<h3 id="at-risk">Verified, name does not match <span class="count" data-testid="at-risk-count">${formatCount(list.total)}</span></h3>`;
  if (list.total === 0) return `${head}<p class="muted">None: every verified account's holder matches the payee name well enough.</p>`;
  const rows = list.items.map((a) => [
    lineCell(a.line, a.line), `<span class="mono">${escapeHtml(a.account)}</span>`, `<span class="mono">${escapeHtml(a.ifsc)}</span>`,
    isolate(escapeCut(a.expectedName, 80)), isolate(escapeCut(a.beneficiaryName, 80)), `<span class="tag v-${escapeHtml(a.verdict)}">${escapeHtml(a.verdict.replace(/_/g, ' '))}</span>`, escapeHtml(a.score),
  ]);
  return `${head}<p>The account exists, but the bank's holder is not the payee the file names. Check these before paying.</p>`
    + table('at-risk', ['Line', 'Account', 'IFSC', 'Payee name (file)', 'Holder (bank)', 'Verdict', 'Score'], rows)
    + rest(list, LIST_FILTERS.atRisk, report.outputName, 'rows');
}

function nameSection(report: RunReport): string {
  const counts = report.nameMatch;
  if (counts === null) return `<p class="muted">Not known for this page: name verdicts are not kept in the state.</p>`;
  const keys = [...NAME_VERDICTS, ...Object.keys(counts).filter((k) => !(NAME_VERDICTS as readonly string[]).includes(k))];
  const bars = keys.map((k) => ({ key: k, label: k.replace(/_/g, ' '), value: counts[k] ?? 0, colour: VERDICT_COLOURS[k] ?? '#6b7280' }));
  return barChart('name-chart', bars, 'Rows by name-match verdict') + atRiskPart(report);
}

function changedSection(report: RunReport): string {
  const changed = report.changedHolders;
  const body = changed.total === 0
    ? `<p class="muted">No holder or status changed since an earlier check of the same account.</p>`
    : `<p>An account whose holder changed since it was last checked is the classic sign of a hijacked payee: confirm with the payee through a known channel before paying.</p>`
      + table('changed', ['Line', 'Account', 'IFSC', 'Before', 'After'], changed.items.map((c) => [
        ...payeeCells(c),
        `${isolate(escapeCut(c.beforeName ?? '—', 80))}<br><small>${escapeHtml(c.beforeStatus ?? '')} · ${escapeHtml(formatDate(c.beforeAt))}</small>`,
        `<b>${isolate(escapeCut(c.afterName ?? '—', 80))}</b><br><small>${escapeHtml(c.afterStatus)} · ${escapeHtml(formatDate(c.afterAt))}</small>`,
      ]))
      + rest(changed, LIST_FILTERS.changed, report.outputName);
  return `<section id="changed"><h2>Holder changed since an earlier check <span class="count" data-testid="changed-count">${formatCount(changed.total)}</span></h2>${body}</section>`;
}

function actionParts(report: RunReport): string[] {
  const a = report.action;
  const resume = `<code class="cmd">${escapeHtml(report.resumeCommand)}</code>`;
  const output = report.outputName;
  const parts: string[] = [];
  if (a.notReached > 0) parts.push(`<p><b>${formatCount(a.notReached)}</b> payee(s) not reached: the run stopped before answering them. Continue with ${resume}</p>`);
  if (a.deferred.total > 0) {
    parts.push(`<h3>Deferred <span class="count">${formatCount(a.deferred.total)}</span></h3><p>The bank's daily limit for these accounts was reached. Nothing to do but run again once they are due: ${resume}</p>`);
    parts.push(actionTable('deferred', a.deferred, (i) => [escapeHtml(formatTime(i.dueAt))], ['Due again']) + rest(a.deferred, LIST_FILTERS.deferred, output));
  }
  const reasonCells = (i: ActionItem) => [isolate(escapeCut(i.reason, 160)), `<span class="mono small">${escapeCut(i.requestId ?? '', 40)}</span>`];
  if (a.failed.total > 0) {
    parts.push(`<h3>Failed <span class="count">${formatCount(a.failed.total)}</span></h3><p>The call failed after its retries. A later ${resume} tries them again; a reason that repeats needs a look.</p>`);
    parts.push(actionTable('failed', a.failed, reasonCells, ['Reason', 'Request id']) + rest(a.failed, LIST_FILTERS.failed, output));
  }
  if (a.unconfirmed.total > 0) {
    parts.push(`<h3>Unconfirmed <span class="count">${formatCount(a.unconfirmed.total)}</span></h3><p>A penny-drop request left but its answer was lost: <b>a rupee may have moved</b>. Check the bank statement for these accounts (give the request id to support). Only then re-send them, with <code class="cmd">${escapeHtml(`${report.resumeCommand} --retry-unconfirmed`)}</code> — re-sending may deposit twice.</p>`);
    parts.push(actionTable('unconfirmed', a.unconfirmed, reasonCells, ['Reason', 'Request id']) + rest(a.unconfirmed, LIST_FILTERS.unconfirmed, output));
  }
  if (parts.length === 0) parts.push(`<p class="muted">Nothing: every row is final.</p>`);
  return parts;
}

/** Calls and spend: of the whole run (every invocation) where the state records it, and of the last invocation. */
function spendTable(report: RunReport): string {
  const s = report.spend;
  const spend = (amount: number | null, id: string) => (amount === null ? 'not known (prices not given)' : `<span data-testid="${id}">${formatMoney(amount)}</span>`);
  const row = (label: string, calls: { pl: number; pd: number }, amount: number | null, prefix: string) => [
    escapeHtml(label), `<span data-testid="${prefix}calls-pl">${formatCount(calls.pl)}</span>`, `<span data-testid="${prefix}calls-pd">${formatCount(calls.pd)}</span>`, spend(amount, `${prefix}spend`),
  ];
  const rows: string[][] = [];
  if (s.run) rows.push(row(`Whole run (${s.run.invocations === 1 ? 'one invocation' : `every invocation: ${formatCount(s.run.invocations)}`})`, s.run.calls, s.run.amount, 'run-'));
  const single = report.invocation?.resumed === false;
  rows.push(row(single && !s.run ? 'The run (one invocation)' : 'Last invocation', s.calls, s.amount, ''));
  const untold = !s.run && !single ? '<p class="muted small">The whole run\'s calls and spend, over every invocation, are not recorded for this run: these are its last invocation\'s.</p>' : '';
  return table('spend-table', ['', 'Penny-less calls', 'Penny-drop calls', 'Estimated spend'], rows) + untold;
}

function spendSection(report: RunReport): string {
  const s = report.spend;
  const avoidedTotal = s.avoided ? Object.values(s.avoided).reduce((x, y) => x + y, 0) : null;
  const facts: Array<[string, string]> = [
    ['Calls avoided', avoidedTotal === null ? `not recorded in the state; ${formatCount(s.reused)} payee(s) reused an earlier result` : `<span data-testid="avoided">${formatCount(avoidedTotal)}</span>${report.invocation?.resumed ? ' (the last invocation)' : ''}`],
  ];
  const chart = s.avoided
    ? barChart('avoided-chart', Object.entries(s.avoided).map(([k, v]) => ({ key: k, label: AVOIDED_LABELS[k] ?? k, value: v, colour: '#5b8def' })), 'Calls avoided by reason')
    : '';
  return `<section id="spend"><h2>Spend and calls avoided</h2>${spendTable(report)}${dl(facts)}${chart}</section>`;
}

function outcomesChart(report: RunReport): string {
  const bins = report.timeline.bins;
  const stacked: Series[] = [
    { key: 'answered', label: 'answered', colour: '#1a7f4b', values: bins.map((b) => b.answered) },
    { key: 'deferred', label: 'deferred', colour: STATUS_COLOURS.DEFERRED, values: bins.map((b) => b.deferred) },
    { key: 'failed', label: 'failed', colour: STATUS_COLOURS.FAILED, values: bins.map((b) => b.failed) },
    { key: 'unconfirmed', label: 'unconfirmed', colour: STATUS_COLOURS.UNCONFIRMED, values: bins.map((b) => b.unconfirmed) },
  ];
  return timeChart('timeline', 'Outcomes', report, stacked, null);
}

/** Calls, and the upstream's 429s, 5xx and timeouts, with retries as a line. */
function activityChart(report: RunReport): string {
  const activity = report.activity;
  if (!activity) {
    const line: Series | null = report.retryBins ? { key: 'retries', label: 'retries (line)', colour: '#e06c2c', values: report.retryBins } : null;
    return line ? timeChart('activity', 'Retries', report, [], line) : `<p class="muted">Calls and upstream errors over time are not recorded for this run.</p>`;
  }
  const stacked: Series[] = [
    { key: 'throttled', label: 'HTTP 429', colour: '#d5a021', values: activity.map((b) => b.throttled) },
    { key: 'server', label: 'HTTP 5xx', colour: STATUS_COLOURS.FAILED, values: activity.map((b) => b.serverErrors) },
    { key: 'timeouts', label: 'timeouts', colour: STATUS_COLOURS.UNCONFIRMED, values: activity.map((b) => b.timeouts) },
  ];
  const retries: Series = { key: 'retries', label: 'retries (line)', colour: '#e06c2c', values: activity.map((b) => b.retries) };
  const calls: Series = { key: 'calls', label: 'calls', colour: '#5b8def', values: activity.map((b) => b.calls) };
  const totals = [...stacked, retries, calls].map((x) => `<span data-testid="activity-${x.key}" data-count="${x.values.reduce((a, b) => a + b, 0)}"></span>`).join('');
  return timeChart('calls-chart', 'Calls', report, [calls], null) + timeChart('activity', 'Upstream errors', report, stacked, retries) + totals;
}

function retryTable(report: RunReport): string {
  const retries = report.retries;
  if (retries === null) return `<p class="muted">Retries are not recorded for this run.</p>`;
  if (Object.keys(retries).length === 0) return `<p class="muted" data-testid="retries">No call was retried.</p>`;
  const rows = Object.entries(retries).sort((x, y) => y[1] - x[1]).map(([k, v]) => [escapeHtml(/^\d+$/.test(k) ? `HTTP ${k}` : k), formatCount(v)]);
  return table('retries', ['Cause', 'Retries'], rows);
}

function timeSection(report: RunReport): string {
  return `<section id="time"><h2>Over time</h2><h3>Outcomes</h3>${outcomesChart(report)}<h3>Calls, retries and upstream errors</h3>${activityChart(report)}<h3>Retries by cause</h3>${retryTable(report)}</section>`;
}

function reasonsSection(report: RunReport): string {
  const body = report.topReasons.length === 0
    ? `<p class="muted">No reasons recorded.</p>`
    : table('reasons', ['verify_reason', 'Payees'], report.topReasons.map((x) => [isolate(escapeCut(x.reason, 200)), formatCount(x.count)]));
  return `<section id="reasons"><h2>Top reasons</h2>${body}</section>`;
}

function footer(report: RunReport): string {
  const notes = report.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('');
  return `<footer>
<p>vas-verify ${escapeHtml(report.toolVersion)} · IFSC registry: ${escapeHtml(report.registry ?? 'not recorded')} · generated ${escapeHtml(formatTime(report.generatedAt))} · account numbers masked to the last four digits</p>
${notes ? `<ul class="notes">${notes}</ul>` : ''}
</footer>`;
}

function head(report: RunReport): string {
  const title = `Verification run ${report.run.runId} — ${report.run.inputName}`;
  return `<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(CSP)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>${escapeCut(title, 160)}</title>
<style>${STYLE}</style>
</head>`;
}

export function renderReport(report: RunReport): string {
  const r = report.run;
  return `<!doctype html>
<html lang="en">
${head(report)}
<body>
<main>
<header>
<p class="eyebrow">vas-verify · bank account verification report</p>
<h1>Run ${r.runId}: <span class="mono">${isolate(escapeCut(r.inputName, 120))}</span></h1>
<p class="sub">${escapeHtml(r.mode)} · started ${escapeHtml(formatTime(r.startedAt))} · ${report.statusUnit === 'rows' ? 'counts are rows of the file' : 'counts are payees (distinct account + IFSC)'}</p>
${banner(report)}
</header>
<section class="kpis">${kpis(report)}</section>

${report.decisions ? decisionSection(report, report.decisions) : ''}

${changedSection(report)}

<section id="action"><h2>No final answer yet</h2><p class="muted">Line = the line of the input file; duplicates of a payee share its outcome.</p>${actionParts(report).join('\n')}</section>

<section id="run"><h2>The run</h2>${dl(runFacts(report))}</section>

${statusSection(report)}

<section id="names"><h2>Name match</h2>${nameSection(report)}</section>

${spendSection(report)}

${timeSection(report)}

${reasonsSection(report)}

${footer(report)}
</main>
</body>
</html>
`;
}

const STYLE = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:#f4f6f9;color:#1c2430;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif}
main{max-width:980px;margin:0 auto;padding:20px 16px 40px}
h1{font-size:1.45rem;margin:.1rem 0 .3rem;word-break:break-all}
h2{font-size:1.1rem;margin:0 0 .7rem;display:flex;align-items:center;gap:.5rem}
h3{font-size:1rem;margin:1.1rem 0 .4rem}
.eyebrow{margin:0;text-transform:uppercase;letter-spacing:.06em;font-size:.72rem;color:#5b6675}
.sub{margin:0 0 .8rem;color:#5b6675;font-size:.9rem}
section{background:#fff;border:1px solid #e1e6ec;border-radius:10px;padding:16px 18px;margin:14px 0}
.banner{border-radius:8px;padding:10px 14px;margin:.6rem 0}
.banner.ok{background:#e7f5ec;border:1px solid #a6d8b8}
.banner.warn{background:#fff4e0;border:1px solid #f0c47a}
.banner.hold{background:#fdecec;border:1px solid #eba3a3}
.banner p{margin:.15rem 0}.banner .headline{font-size:1.15rem;font-weight:650}
.kpis{display:grid;grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:10px;background:none;border:0;padding:0}
.kpi{background:#fff;border:1px solid #e1e6ec;border-radius:10px;padding:12px 14px}
.kpi .v{font-size:1.6rem;font-weight:650;font-variant-numeric:tabular-nums}
.kpi .l{color:#5b6675;font-size:.85rem}
.kpi.good .v{color:#1a7f4b}.kpi.bad .v{color:#c62828}.kpi.warn .v{color:#b26a00}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}
.facts dt{color:#5b6675}.facts dd{margin:0;word-break:break-word}
.chart{width:100%;height:auto;display:block;max-width:760px}
.chart .lbl{font-size:12.5px;fill:#1c2430}.chart .num{font-size:12.5px;font-weight:600;fill:#1c2430}.chart .pct{font-weight:400;fill:#5b6675}
.chart .axis{font-size:11px;fill:#5b6675}
.legend{font-size:.85rem;display:flex;flex-wrap:wrap;gap:4px 14px;margin:.4rem 0 0}
.legend .key i{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:5px;vertical-align:-1px}
.legend-list{margin:.6rem 0 0;padding-left:1.1rem;font-size:.85rem;color:#3b4654;columns:2 320px}
.count{display:inline-block;background:#eef1f5;border-radius:999px;padding:0 .55rem;font-size:.85rem;font-weight:600}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;width:100%;font-size:.86rem}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #e9edf2;vertical-align:top}
th{background:#f6f8fa;font-weight:600;white-space:nowrap}
td{word-break:break-word}
td .mono{white-space:nowrap}
.mono,code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em}
code.cmd{display:inline-block;background:#1c2430;color:#f4f6f9;padding:2px 7px;border-radius:5px;word-break:break-all;margin-top:2px}
.small{font-size:.78em;color:#5b6675}
.muted{color:#5b6675}
.more{font-size:.85rem;color:#3b4654}
.tag{display:inline-block;border-radius:4px;padding:0 5px;font-size:.78rem;font-weight:600;color:#fff;background:#6b7280;white-space:nowrap}
.tag.v-NO_MATCH{background:#c62828}.tag.v-POOR_PARTIAL_MATCH{background:#e06c2c}.tag.v-MODERATE_PARTIAL_MATCH{background:#b88a12}
.tag.v-DIRECT_MATCH,.tag.v-GOOD_PARTIAL_MATCH,.tag.d-PAY,.tag.d-NAME_MATCH,.tag.d-REVIEW_ACCEPTED{background:#1a7f4b}
.tag.d-HOLD,.tag.d-NAME_MISMATCH,.tag.d-HOLDER_CHANGED,.tag.d-REVIEW_REJECTED,.tag.d-ACCOUNT_INVALID,.tag.d-ACCOUNT_NOT_VERIFIED{background:#c62828}
.tag.d-REVIEW,.tag.d-NAME_CLOSE,.tag.d-NO_NAME_TO_CHECK,.tag.d-AWAITING_APPROVAL{background:#b26a00}.tag.d-NOT_FINAL{background:#2f6fca}
footer{font-size:.8rem;color:#5b6675;margin-top:18px}
.notes{padding-left:1.1rem}
@media (max-width:600px){main{padding:12px 10px 30px}section{padding:12px}.facts{grid-template-columns:1fr}.facts dt{font-weight:600;margin-top:4px}h1{font-size:1.2rem}}
@page{size:A4;margin:14mm 12mm}
@media print{body{background:#fff;font-size:10.5pt}main{max-width:none;padding:0}section,.kpi{border-color:#ccc;break-inside:avoid;page-break-inside:avoid}table{break-inside:auto}tr{break-inside:avoid}code.cmd{background:#fff;color:#000;border:1px solid #999}.scroll{overflow:visible}*{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
`;
