/**
 * Every capped list of the report names a command that lists all of it from the enriched CSV
 * (src/report/filter.ts, `vas-verify filter`). A run with a changed holder, deferred accounts and
 * names that do not match (all held), reported with --limit 1 (from the state, where the run recorded its
 * output's path): each command on the page, run as written, gives exactly the list's rows.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { startSandbox } from '../src/sandbox/index.js';
import { filterCommand, filterRows, parseCondition, shellWord } from '../src/report/filter.js';
import { runCli, tempDir } from './helpers/cli.js';

/** The words of a command as the page prints it (bare words and single-quoted ones: what shellWord writes). */
function shellWords(command: string): string[] {
  const words: string[] = [];
  for (const m of command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)) words.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!);
  return words;
}

function unescapeHtml(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&#96;/g, '`').replace(/&amp;/g, '&');
}

test('conditions, shell words and the command', () => {
  assert.deepEqual(parseCondition('verify_status=FAILED'), { column: 'verify_status', negate: false, values: new Set(['FAILED']) });
  assert.deepEqual(parseCondition('changed_since!='), { column: 'changed_since', negate: true, values: new Set(['']) });
  assert.deepEqual(parseCondition('name_match=POOR_PARTIAL_MATCH,NO_MATCH').values, new Set(['POOR_PARTIAL_MATCH', 'NO_MATCH']));
  assert.throws(() => parseCondition('verify_status'), /COLUMN=VALUE/);
  for (const word of ['out.csv', 'my file.csv', "it's.csv", 'a;rm -rf x', '$(x)']) assert.deepEqual(shellWords(shellWord(word)), [word]);
  assert.equal(filterCommand('out dir/p.csv', ['changed_since!=']), "vas-verify filter 'out dir/p.csv' --where 'changed_since!=' --line");
});

test('filterRows: a preamble, renamed columns and quoted cells', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'out.csv');
  fs.writeFileSync(file, [
    'Exported 01-01-2026',
    'Name,verify_status,Account,vas_verify_status,verify_reason',
    '"A, one",x,100000000012,FAILED,"503, twice"',
    'B,FAILED,100000000013,VERIFIED,',
    '"C ""q""",y,100000000014,FAILED,',
  ].join('\n'));
  let text = '';
  const n = await filterRows(file, [parseCondition('verify_status=FAILED')], (chunk) => (text += chunk));
  assert.equal(n, 2, 'the tool\'s own column (vas_verify_status), not the input\'s');
  const rows = parse(text) as string[][];
  assert.deepEqual(rows.map((r) => r[0]), ['Name', 'A, one', 'C "q"']);
  await assert.rejects(filterRows(file, [parseCondition('nope=1')], () => {}), /no column nope/);
  // --line: each row led by its line in the file, as the report numbers rows (a quoted cell spans no line here).
  let numbered = '';
  await filterRows(file, [parseCondition('verify_status=FAILED')], (chunk) => (numbered += chunk), { line: true });
  assert.deepEqual((parse(numbered) as string[][]).map((r) => r.slice(0, 2)), [['line', 'Name'], ['3', 'A, one'], ['5', 'C "q"']]);
});

test('each capped list of a rebuilt report names a command that gives all of its rows', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const changed = ['502000111222', '502000111333'];
  const before = await startSandbox({ accounts: changed.map((accountNumber) => ({ accountNumber, ifsc: 'HDFC0000123', name: 'ANITA DESAI' })) });
  fs.writeFileSync(path.join(dir, 'first.csv'), `Name,Account Number,IFSC\n${changed.map((a) => `Anita Desai,${a},HDFC0000123`).join('\n')}\n`);
  const first = await runCli(['bank', 'first.csv', '-o', 'first.out.csv', '--state', 's.sqlite', '--base-url', before.url], { cwd: dir });
  await before.close();
  assert.equal(first.code, 0, first.stderr);

  const sandbox = await startSandbox({ accounts: changed.map((accountNumber) => ({ accountNumber, ifsc: 'HDFC0000123', name: 'VIKRAM SINGH' })) });
  t.after(() => sandbox.close());
  const rows = ['Name,Account Number,IFSC'];
  for (const a of changed) rows.push(`Anita Desai,${a},HDFC0000123`, `Anita Desai,${a},HDFC0000123`); // each with a duplicate
  for (let i = 0; i < 3; i += 1) rows.push(`Limited ${i},70000000${i}092,SBIN0001234`, `Limited ${i},70000000${i}092,SBIN0001234`);
  for (let i = 0; i < 4; i += 1) rows.push(`Rohit Verma,80000000${i}012,SBIN0001234`);
  fs.writeFileSync(path.join(dir, 'out dir.csv'), `${rows.join('\n')}\n`);
  fs.mkdirSync(path.join(dir, 'res'));
  const r = await runCli(['bank', 'out dir.csv', '-o', 'res/night 2.csv', '--state', 's.sqlite', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(r.code, 3, r.stderr);

  const rebuilt = await runCli(['report', '--state', 's.sqlite', '--limit', '1', '-o', 'run.html'], { cwd: dir });
  assert.equal(rebuilt.code, 0, rebuilt.stderr);
  const html = fs.readFileSync(path.join(dir, 'run.html'), 'utf8');
  const lists = [...html.matchAll(/…and (\d+) more (payee|row)\(s\)\.[^<]*<code class="cmd" data-testid="filter">([^<]+)<\/code>/g)];
  assert.equal(lists.length, 3, 'the held list, changed holders and deferred are cut short');
  assert.ok(lists.some(([, , , encoded]) => encoded!.includes('--where decision=HOLD')), 'the held list names its filter by decision');
  const output = parse(fs.readFileSync(path.join(dir, 'res', 'night 2.csv'))) as string[][];
  for (const [, more, unit, encoded] of lists) {
    const command = unescapeHtml(encoded!);
    const words = shellWords(command);
    assert.deepEqual(words.slice(0, 3), ['vas-verify', 'filter', 'res/night 2.csv'], command);
    const listed = await runCli(words.slice(1), { cwd: dir });
    assert.equal(listed.code, 0, listed.stderr);
    const [header, ...numbered] = parse(listed.stdout) as string[][];
    assert.equal(header![0], 'line', 'each row led by its line');
    // Each row is the output's row at that line (the file has no preamble and no multi-line cell: line n is record n).
    for (const row of numbered) assert.deepEqual(row.slice(1), output[Number(row[0]) - 1], command);
    const got = numbered.map((row) => row.slice(1));
    const total = Number(more) + 1;
    if (unit === 'row') {
      assert.equal(got.length, total, command);
    } else {
      // A list of payees: every row of each, duplicates included.
      assert.equal(new Set(got.map((row) => `${row[1]}|${row[2]}`)).size, total, command);
      assert.ok(got.length > total, 'their duplicate rows too');
    }
    assert.ok(got.every((row) => output.some((o) => o.join('\u0000') === row.join('\u0000'))), 'rows of the output, unchanged');
  }
});
