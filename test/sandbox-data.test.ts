import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IfscDetailsSchema } from '../src/api/schemas.js';
import {
  BANKS,
  holderNameFor,
  ifscDetailsFor,
  loadRegistry,
  parseFaults,
  parseLatency,
  PLACES,
  planBankRequest,
} from '../src/sandbox/index.js';

const accounts = Array.from({ length: 2000 }, (_, i) => String(300000000000 + i * 7919));

test('holderNameFor is deterministic, seed-dependent and realistic', () => {
  assert.equal(holderNameFor('123456789012'), holderNameFor('123456789012', 1));
  assert.equal(holderNameFor('123456789012', 7), holderNameFor('123456789012', 7));
  const seed1 = accounts.map((a) => holderNameFor(a, 1));
  const seed2 = accounts.map((a) => holderNameFor(a, 2));
  assert.ok(seed1.filter((name, i) => name !== seed2[i]).length > 1000, 'seed changes names');

  for (const name of seed1) assert.match(name, /^[A-Za-z][A-Za-z &/.]*[A-Za-z]$/, name);
  const upper = seed1.filter((name) => name === name.toUpperCase()).length;
  assert.ok(upper / seed1.length > 0.85, `upper-case share ${upper}`);
  const business = seed1.filter((name) => /\b(PVT LTD|PRIVATE LIMITED|LLP|LIMITED|M\/S|& SONS|TRADERS|ENTERPRISES|AGENCIES)\b/i.test(name));
  assert.ok(business.length / seed1.length > 0.05 && business.length / seed1.length < 0.16, `businesses ${business.length}`);
  assert.ok(new Set(seed1).size > 1500, 'names are varied');
  // Diversity: Sikh, Muslim, South Indian initials, Bengali, Marathi, Christian names all occur.
  for (const pattern of [/\bSINGH\b/, /\bKAUR\b/, /\b(SHAIKH|KHAN|ANSARI|QURESHI)\b/, /^[A-Z] [A-Z]{3,}/, /\b(CHATTERJEE|BANERJEE|GHOSH)\b/,
    /\b(PATIL|DESHMUKH|KULKARNI)\b/, /\b(VARGHESE|FERNANDES|JOSEPH|THOMAS)\b/, /\b(REDDY|NAIDU)\b/, /^[A-Z] [A-Z] [A-Z]+$/]) {
    assert.ok(seed1.some((name) => pattern.test(name)), `no name matches ${pattern}`);
  }
});

test('ifscDetailsFor: real banks, real places, deterministic, schema-valid', () => {
  assert.equal(ifscDetailsFor('SBIN0001234')?.name, 'State Bank of India');
  assert.equal(ifscDetailsFor('UTIB0000001')?.name, 'Axis Bank');
  assert.equal(ifscDetailsFor('HDFC0000001')?.name, 'HDFC Bank');
  assert.equal(ifscDetailsFor('ABCD0000001'), null);
  assert.equal(ifscDetailsFor('SBIN000123'), null);
  assert.deepEqual(ifscDetailsFor('ICIC0004321'), ifscDetailsFor('ICIC0004321'));
  assert.ok(BANKS.length >= 40);

  const details = BANKS.flatMap((bank) =>
    Array.from({ length: 25 }, (_, i) => ifscDetailsFor(`${bank.code}0${String(i * 37).padStart(6, '0')}`)),
  );
  for (const detail of details) {
    assert.ok(detail !== null);
    IfscDetailsSchema.parse(detail);
    assert.match(detail.iso3166, /^IN-[A-Z]{2}$/);
    assert.ok(detail.micr === null || /^\d{9}$/.test(detail.micr), String(detail.micr));
    assert.ok(detail.swift === null || /^[A-Z]{4}IN[A-Z0-9]{2}[A-Z0-9]{3}$/.test(detail.swift), String(detail.swift));
    assert.ok(detail.branch.length > 0 && detail.city.length > 0 && detail.district.length > 0);
  }
  const share = (predicate: (d: NonNullable<(typeof details)[number]>) => boolean) =>
    details.filter((d) => d !== null && predicate(d)).length / details.length;
  assert.ok(share((d) => d.imps && d.neft && d.upi) > 0.8);
  assert.ok(share((d) => d.swift !== null) > 0.1);
  assert.ok(share((d) => d.micr !== null) > 0.6);
  // Regional banks are mostly at home.
  const jk = Array.from({ length: 40 }, (_, i) => ifscDetailsFor(`JAKA0${String(i).padStart(6, '0')}`)?.iso3166);
  assert.ok(jk.filter((iso) => iso === 'IN-JK').length > 20);

  // A state always has one ISO code.
  const isoByState = new Map<string, string>();
  for (const place of PLACES) {
    assert.equal(isoByState.get(place.state) ?? place.iso3166, place.iso3166, place.state);
    isoByState.set(place.state, place.iso3166);
  }
  assert.equal(isoByState.get('TELANGANA'), 'IN-TS'); // ISO 3166-2:IN since 2023-11 (was IN-TG)
  assert.equal(isoByState.get('MAHARASHTRA'), 'IN-MH');
});

test('parseLatency', () => {
  assert.equal(parseLatency('200'), 200);
  assert.deepEqual(parseLatency('100-300'), [100, 300]);
  assert.deepEqual(parseLatency(' 5 - 5 '), [5, 5]);
  assert.throws(() => parseLatency('300-100'), /minimum/);
  assert.throws(() => parseLatency('fast'), /invalid latency "fast"/);
  assert.throws(() => parseLatency('-5'), /invalid latency/);
  assert.throws(() => parseLatency(''), /invalid latency/);
});

test('parseFaults', () => {
  assert.deepEqual(parseFaults('429,500,reset'), ['429', '500', 'reset']);
  assert.deepEqual(parseFaults(' HANG , 503,503'), ['hang', '503']);
  assert.throws(() => parseFaults('429,timeout'), /invalid fault "timeout"/);
  assert.throws(() => parseFaults(''), /at least one/);
});

test('loadRegistry: header optional, statuses, errors name the line', () => {
  assert.deepEqual(loadRegistry('123456789012,sbin0001234,RAVI KUMAR\n\n123456789013,,SITA DEVI,not verified\n'), [
    { accountNumber: '123456789012', ifsc: 'SBIN0001234', name: 'RAVI KUMAR' },
    { accountNumber: '123456789013', ifsc: '', name: 'SITA DEVI', status: 'NOT_VERIFIED' },
  ]);
  assert.deepEqual(loadRegistry('name,ifsc,account_number,status\n"SHARMA, R K",HDFC0000001,123456789012,VERIFIED\n'), [
    { accountNumber: '123456789012', ifsc: 'HDFC0000001', name: 'SHARMA, R K', status: 'VERIFIED' },
  ]);
  assert.deepEqual(loadRegistry(''), []);
  assert.throws(() => loadRegistry('accountNumber,ifsc,name\n123456789012,SBIN0001234,OK\n1234,SBIN0001234,SHORT\n'), /line 3: account number "1234"/);
  assert.throws(() => loadRegistry('123456789012,SBIN0001234,OK,MAYBE\n'), /line 1: status "MAYBE"/);
  assert.throws(() => loadRegistry('123456789012,SBIN01234,OK\n'), /line 1: IFSC/);
  assert.throws(() => loadRegistry('123456789012,SBIN0001234\n'), /line 1: expected/);
  assert.throws(() => loadRegistry('123456789012,SBIN0001234,\n'), /line 1: name is empty/);
  assert.throws(() => loadRegistry('foo,bar\n'), /line 1: header/);
  // Saved by Excel where the list separator is ';', or as tab-separated text: read as the payee file is.
  assert.deepEqual(loadRegistry('\uFEFFAccount Number;IFSC;Name\r\n123456789012;SBIN0001234;"SHARMA; R K"\r\n123456789013;HDFC0000001;SITA DEVI\r\n'), [
    { accountNumber: '123456789012', ifsc: 'SBIN0001234', name: 'SHARMA; R K' },
    { accountNumber: '123456789013', ifsc: 'HDFC0000001', name: 'SITA DEVI' },
  ]);
  assert.deepEqual(loadRegistry('123456789012\tSBIN0001234\tRAVI KUMAR, JR\n'), [{ accountNumber: '123456789012', ifsc: 'SBIN0001234', name: 'RAVI KUMAR, JR' }]);
});

test('planBankRequest follows the test-account table', () => {
  assert.deepEqual(planBankRequest('123456789012', 1), { kind: 'process', delayMs: 0, dropConnection: false });
  assert.equal(planBankRequest('123456789091', 1).kind, 'error200');
  assert.equal(planBankRequest('123456789092', 5).kind, 'error200');
  assert.deepEqual([1, 2, 3].map((n) => planBankRequest('123456789093', n).kind), ['fail', 'fail', 'process']);
  assert.deepEqual([1, 2].map((n) => planBankRequest('123456789095', n).kind), ['fail', 'process']);
  assert.deepEqual(planBankRequest('123456789096', 1), { kind: 'process', delayMs: 3000, dropConnection: false });
  assert.deepEqual([1, 2].map((n) => planBankRequest('123456789097', n)), [
    { kind: 'process', delayMs: 0, dropConnection: true },
    { kind: 'process', delayMs: 0, dropConnection: false },
  ]);
});
