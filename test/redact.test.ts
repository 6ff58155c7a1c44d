/** The redaction point and the terminal filter (src/redact.ts, src/terminal.ts): pure, table tests. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { excerpt, maskPersonalIds, redact, registerSecret, registerUrlSecrets, REDACTED } from '../src/redact.js';
import { stripControl } from '../src/terminal.js';

test('redact: every registered secret, in the forms an echo shows it (plain, URL-encoded), longest first', () => {
  registerSecret('s3cr3t+/=value');
  registerSecret('abc'); // too short to register: ordinary text would be mangled
  registerSecret('tok_AAAA');
  registerSecret('tok_AAAA_longer');
  assert.equal(redact('Bearer s3cr3t+/=value'), `Bearer ${REDACTED}`);
  assert.equal(redact('client_secret=s3cr3t%2B%2F%3Dvalue&x=1'), `client_secret=${REDACTED}&x=1`);
  assert.equal(redact('abc tok_AAAA_longer tok_AAAA'), `abc ${REDACTED} ${REDACTED}`);
  registerUrlSecrets('https://user:p%40ss-w0rd@api.example.com/');
  assert.equal(redact('connection to https://user:p%40ss-w0rd@api.example.com failed (p@ss-w0rd)'), `connection to https://user:${REDACTED}@api.example.com failed (${REDACTED})`);
});

test('excerpt: one line, at most 200 characters, redacted before it is cut (no half secret survives)', () => {
  registerSecret('tok_cut_in_half_0123456789');
  const body = `${'a'.repeat(190)} tok_cut_in_half_0123456789 ${'b'.repeat(10_000_000)}`;
  const text = excerpt(body);
  assert.ok(text.length <= 201);
  assert.ok(!text.includes('tok_cut'), text.slice(180));
  assert.equal(excerpt('line one\n\tline two  '), 'line one line two');
});

test('stripControl: C0 (but tab and newline), DEL, C1 and bidi overrides become U+FFFD; plain text is untouched', () => {
  assert.equal(stripControl('a\u001b[2Jb\u0007c\rd\u009be\u202ef'), 'a\ufffd[2Jb\ufffdc\ufffdd\ufffde\ufffdf');
  assert.equal(stripControl('tab\there\nnext line'), 'tab\there\nnext line');
  const plain = 'session 3f6c… is Completed';
  assert.equal(stripControl(plain), plain);
});

test('redact: a URL\'s password however short, registered or not; one printed masked (***) stays so; an e-mail address or a query is no password', () => {
  assert.equal(redact('connection to http://user:pw@10.0.0.5:8/x failed'), `connection to http://user:${REDACTED}@10.0.0.5:8/x failed`);
  assert.equal(redact('redis://:s3@127.0.0.1:6379 refused'), `redis://:${REDACTED}@127.0.0.1:6379 refused`);
  assert.equal(redact('Resume with: vas-verify bank p.csv --base-url https://ops:***@api.example.com'), 'Resume with: vas-verify bank p.csv --base-url https://ops:***@api.example.com');
  assert.equal(redact('write to ravi@example.com, see http://host/path?a=b@c'), 'write to ravi@example.com, see http://host/path?a=b@c');
});

test('maskPersonalIds: a PAN, an Aadhaar number in groups and a date of birth after its label, as an upstream quotes them; not file names, paths, ids or ordinary dates', () => {
  const masked: Array<[string, string]> = [
    ['PAN ABCDE1234F does not match', 'PAN xxxxx1234F does not match'],
    ['no record for pan abcde1234f.', 'no record for pan xxxxx1234f.'],
    ['Aadhaar 2345 6789 0123 not linked', 'Aadhaar xxxx xxxx 0123 not linked'],
    ['aadhaar 2345-6789-0123', 'aadhaar xxxx-xxxx-0123'],
    ['DOB: 17/08/1972 differs', 'DOB: xx-xx-xxxx differs'],
    ['{"name":"X","dob": "17081972"}', '{"name":"X","dob": "xx-xx-xxxx"}'],
    ['date_of_birth=1972-08-17', 'date_of_birth=xx-xx-xxxx'],
  ];
  for (const [text, want] of masked) assert.equal(maskPersonalIds(text), want, text);
  const kept = [
    'vas-verify bank MARCH2025A.csv -o out.csv --resume',
    '/data/BATCH2411Q/payees.csv',
    'IFSC SBIN0001234 and session 3f6c2a9e-8d1b-4c7a-9e2f-5b6d7c8e9f01',
    'deferred to 2026-11-28; 2024 1127 0001.csv',
    'INR 1500.2000',
  ];
  for (const text of kept) assert.equal(maskPersonalIds(text), text, text);
  assert.equal(excerpt('  Invalid PAN ABCDE1234F\n for DOB 01-01-1990 '), 'Invalid PAN xxxxx1234F for DOB xx-xx-xxxx');
});
