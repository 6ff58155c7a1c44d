/**
 * Bidirectional controls (#26, "bidi overrides reach the report unisolated"): a holder name from
 * the bank or a payee name from the CSV carrying U+202E (RIGHT-TO-LEFT OVERRIDE) would show the
 * rest of its line reversed ("Trojan Source"). The HTML report drops every bidi control and puts
 * each outside value in its own <bdi>; the terminal replaces them with U+FFFD.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { escapeHtml } from '../src/report/escape.js';
import { stripControl } from '../src/terminal.js';

const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];
const ANY_BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

test('a holder name with U+202E from the bank and a payee name with bidi controls from the CSV: the report shows them isolated, with no bidi control left', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  // The bank's holder: looks like "Suresh Patil" followed by reversed text.
  fs.writeFileSync(path.join(dir, 'holders.csv'), 'accountNumber,ifsc,name,status\n620000000111,SBIN0001234,Suresh Patil \u202Eexe.tnemyap,VERIFIED\n620000000124,SBIN0001234,Meena Iyer,VERIFIED\n');
  fs.writeFileSync(path.join(dir, 'payees \u2067x\u2069.csv'), 'name,account number,ifsc\n"Anil \u202EraMuK\u202C",620000000111,SBIN0001234\nMeena \u200FIyer\u061C,620000000124,SBIN0001234\n');
  const r = await runCli(['bank', 'payees \u2067x\u2069.csv', '-o', 'out.csv', '--state', 's.sqlite', '--sandbox', '--sandbox-accounts', 'holders.csv', '--report', 'run.html'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr + r.stdout, ANY_BIDI, 'the terminal gets no bidi control');
  const html = fs.readFileSync(path.join(dir, 'run.html'), 'utf8');
  assert.doesNotMatch(html, ANY_BIDI, 'the page keeps no bidi control');
  assert.match(html, /<bdi>Suresh Patil exe\.tnemyap<\/bdi>/, 'the bank\'s holder is shown, isolated');
  assert.match(html, /<bdi>Anil raMuK<\/bdi>/, 'the file\'s payee name is shown, isolated');
  assert.match(html, /<bdi>payees x\.csv<\/bdi>/, 'the input\'s name is shown, isolated');
});

test('escapeHtml drops every bidi control; stripControl makes each a visible U+FFFD', () => {
  for (const c of BIDI) {
    assert.equal(escapeHtml(`a${c}b`), 'ab', `U+${c.codePointAt(0)!.toString(16)}`);
    assert.equal(stripControl(`a${c}b`), 'a\ufffdb', `U+${c.codePointAt(0)!.toString(16)}`);
  }
  // Right-to-left text itself is kept: only the controls go.
  assert.equal(escapeHtml('محمد علی'), 'محمد علی');
  assert.equal(stripControl('محمد علی'), 'محمد علی');
});
