import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { BranchNumbers, DEFAULT_REGISTRY_PATH, ifscRegistry, readRegistry, registryBankName, registryNote, unknownBankReason, type RegistryFile } from '../src/input/ifsc-registry.js';

test('the shipped registry: dated, sourced, every issuing bank, loads in well under a second', () => {
  const started = performance.now();
  const registry = readRegistry();
  const loadMs = performance.now() - started;
  assert.ok(loadMs < 500, `loaded in ${loadMs.toFixed(0)} ms`);
  assert.match(registry.published, /^\d{4}-\d{2}-\d{2}$/);
  assert.match(registry.source, /^ifsc@\d+\.\d+\.\d+ \(Razorpay, MIT/);
  assert.ok(registry.bankCodes.length > 200);
  assert.ok(fs.statSync(DEFAULT_REGISTRY_PATH).size < 2 * 1024 * 1024, 'a compact file');
  assert.equal(ifscRegistry(), ifscRegistry(), 'read once');
});

test('sublet codes: the same answers as asking every prefix from the longest down, for every sublet code and prefix the registry holds', () => {
  const file = JSON.parse(zlib.gunzipSync(fs.readFileSync(DEFAULT_REGISTRY_PATH)).toString('utf8')) as RegistryFile;
  const registry = readRegistry();
  // The plain reading: the whole code, then each prefix from 10 characters down to 5.
  const reference = (ifsc: string): string | null => {
    let code: string | undefined = file.sublets[ifsc];
    for (let n = ifsc.length - 1; n >= 5 && code === undefined; n -= 1) code = file.subletPrefixes[ifsc.slice(0, n)];
    return code ?? null;
  };
  const codes = [...Object.keys(file.sublets)];
  for (const prefix of Object.keys(file.subletPrefixes)) {
    for (const tail of ['000000', 'ZZZZZZ', '012345', 'A1B2C3']) codes.push((prefix.length >= 5 ? prefix : `${prefix}0`) + tail.slice(0, 11 - Math.max(prefix.length, 5)));
  }
  for (const code of Object.keys(file.banks).slice(0, 120)) codes.push(`${code}0000001`, `${code}0CAACOB`);
  let sublets = 0;
  for (const ifsc of codes) {
    const found = registry.lookup(ifsc);
    if (found.status === 'malformed' || found.status === 'unknown-bank') continue;
    assert.equal(found.subletOf?.code ?? null, reference(ifsc), ifsc);
    if (found.subletOf) sublets += 1;
  }
  assert.ok(sublets > 1_000, `${sublets} sublet codes compared`);
});

test('lookup: listed, unlisted branch, unknown bank, malformed, sublet; numeric and text branch codes', () => {
  const registry = ifscRegistry();
  const status = (code: string) => registry.lookup(code).status;
  assert.equal(status('SBIN0000001'), 'listed');
  assert.equal(status(' sbin0000691 '), 'listed', 'trimmed and upper-cased');
  assert.equal(status('BARB0AAMBUR'), 'listed', 'a text branch code');
  assert.equal(status('IDIB000A001'), 'listed');
  assert.equal(status('SBIN0999999'), 'unlisted-branch');
  assert.equal(status('ABCD0000001'), 'unknown-bank');
  assert.equal(status('SBIN000001'), 'malformed');
  const hdfc = registry.lookup('HDFC0000001');
  assert.deepEqual(hdfc.bank, { code: 'HDFC', name: 'HDFC Bank', type: 'Private', upi: true });
  assert.equal(hdfc.subletOf, null);
  const sublet = registry.lookup('HDFC0CAACOB');
  assert.equal(sublet.subletOf?.code, 'AACX');
  assert.equal(registryBankName(sublet), sublet.subletOf?.name, 'a sublet code names its real bank');
  assert.match(registryNote(sublet, registry), /sub-member code: the account is held at .+, through HDFC Bank/);
  assert.match(registryNote(registry.lookup('SBIN0999999'), registry), /not in the IFSC registry of \d{4}-\d{2}-\d{2}.*called anyway/);
  assert.equal(registryNote(hdfc, registry), '');
  assert.match(unknownBankReason(registry.lookup('ABCD0000001'), registry), /no bank issues IFSCs under the code ABCD/);
  // A sub-member's own code is a bank name but issues no IFSCs.
  const member = registry.lookup('AACX0000001');
  assert.equal(member.status, 'unknown-bank');
  assert.match(unknownBankReason(member, registry), /AACX is .+, which uses its sponsor bank's IFSCs/);
  assert.equal(registryBankName(member), null);
});

test('the compact branch encoding round-trips', () => {
  assert.deepEqual([...BranchNumbers.decode('')], []);
  const numbers = BranchNumbers.decode('1+3.1.a');
  assert.deepEqual([...numbers], [1, 2, 3, 5, 16]);
  assert.deepEqual([0, 1, 3, 4, 5, 6, 15, 16, 17].map((n) => numbers.has(n)), [false, true, true, false, true, false, false, true, false]);
  const file = JSON.parse(zlib.gunzipSync(fs.readFileSync(DEFAULT_REGISTRY_PATH)).toString('utf8')) as RegistryFile;
  assert.equal(file.format, 1);
  assert.ok(BranchNumbers.decode(file.banks.SBIN!.n).size > 20_000);
});
