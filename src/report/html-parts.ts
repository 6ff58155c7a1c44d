/**
 * The page's small building blocks, shared by its sections (render.ts, render-decisions.ts):
 * tables, fact lists, the "…and N more" line with its filter command, and the one row numbering
 * the page uses everywhere — the file's line. Every value passes through escape.ts.
 */
import { escapeHtml } from './escape.js';
import { filterCommand } from './filter.js';
import { formatCount } from './format.js';
import type { CappedList } from './model.js';

export function table(testid: string, head: readonly string[], rows: readonly string[][]): string {
  const th = head.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('');
  return `<div class="scroll"><table data-testid="${escapeHtml(testid)}"><thead><tr>${th}</tr></thead><tbody>${body}</tbody></table></div>`;
}

export function dl(facts: Array<[string, string]>): string {
  return `<dl class="facts">${facts.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

/**
 * "…and N more": the count of the rest, and the command that lists them all from the enriched
 * CSV. Lists of payees give every row of each (its duplicates too); lists of rows, those rows.
 */
export function rest<T>(list: CappedList<T>, where: readonly string[], output: string | null, unit: 'rows' | 'payees' = 'payees'): string {
  const more = list.total - list.items.length;
  if (more <= 0) return '';
  const command = filterCommand(output, where);
  const what = unit === 'rows' ? `${formatCount(more)} more row(s). All of them:` : `${formatCount(more)} more payee(s). All their rows, duplicates included:`;
  return `<p class="more">…and ${what} <code class="cmd" data-testid="filter">${escapeHtml(command)}</code></p>`;
}

/**
 * The row's place in the file, as every list shows it: the file's line (the line a spreadsheet or
 * an editor shows, the header's line and any lines above it counted). A state that does not
 * record the line (a run before schema 7) gives the data row, marked as such ("row 3": 1 is the
 * first row under the header).
 */
export function lineCell(line: number | null, row: number): string {
  return line === null ? `<span class="mono muted">row ${row}</span>` : `<span class="mono">${line}</span>`;
}

/** A code from a closed list as a coloured tag (`NO_MATCH` → "NO MATCH"). */
export function codeTag(code: string, kind: 'v' | 'd' = 'v'): string {
  return `<span class="tag ${kind}-${escapeHtml(code)}">${escapeHtml(code.replace(/_/g, ' '))}</span>`;
}
