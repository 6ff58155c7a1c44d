/**
 * Builds src/input/data/ifsc-registry.json.gz from Razorpay's `ifsc` npm package (MIT), whose
 * data files list every IFSC per bank, the bank names, bank-level facts and the "sublet" codes
 * that sub-member banks use through a sponsor bank. The package is not a dependency (it pulls
 * in the deprecated `request`); its data is read from an unpacked tarball:
 *
 *   mkdir -p /tmp/ifsc && cd /tmp/ifsc && npm pack ifsc@2.0.50 && tar xzf ifsc-2.0.50.tgz
 *   node --import tsx scripts/build-ifsc-registry.ts /tmp/ifsc/package 2026-08-24
 *
 * The second argument is the package version's publication date (`npm view ifsc time`), which
 * the registry carries so that users know how old their list is.
 *
 * Branch codes are stored per bank in a compact text: the numeric ones (most banks number
 * their branches) as runs `start+length` with base-36 gaps, the others as a comma list.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import type { RegistryFile } from '../src/input/ifsc-registry.js';

const [packageDir, published] = process.argv.slice(2);
if (!packageDir || !published || !/^\d{4}-\d{2}-\d{2}$/.test(published)) {
  console.error('usage: build-ifsc-registry.ts <unpacked ifsc package dir> <published YYYY-MM-DD>');
  process.exit(2);
}
const read = <T>(name: string): T => JSON.parse(fs.readFileSync(path.join(packageDir, 'src', name), 'utf8')) as T;
const pkg = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { name: string; version: string; license: string };

const branches = read<Record<string, Array<number | string>>>('IFSC.json');
const names = read<Record<string, string>>('banknames.json');
const facts = read<Record<string, { type?: string; upi?: boolean; micr?: string | null; iin?: string | null }>>('banks.json');
const sublets = read<Record<string, string>>('sublet.json');
const customSublets = read<Record<string, string>>('custom-sublets.json');

/** Numeric branch codes as runs: `gap+length` pairs in base 36, separated by `.`. */
export function encodeNumbers(numbers: readonly number[]): string {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const runs: string[] = [];
  let previousEnd = -1;
  for (let i = 0; i < sorted.length; ) {
    const start = sorted[i]!;
    let end = start;
    while (i + 1 < sorted.length && sorted[i + 1] === end + 1) {
      i += 1;
      end += 1;
    }
    i += 1;
    const gap = start - previousEnd - 1;
    const length = end - start + 1;
    runs.push(length === 1 ? gap.toString(36) : `${gap.toString(36)}+${length.toString(36)}`);
    previousEnd = end;
  }
  return runs.join('.');
}

const file: RegistryFile = {
  format: 1,
  source: `${pkg.name}@${pkg.version} (Razorpay, ${pkg.license}; https://github.com/razorpay/ifsc)`,
  published,
  banks: {},
  names: {},
  members: {},
  sublets: { ...sublets },
  subletPrefixes: {},
};
for (const [code, list] of Object.entries(branches)) {
  const numbers = list.filter((b): b is number => typeof b === 'number');
  const texts = list.filter((b): b is string => typeof b === 'string').sort();
  const f = facts[code];
  file.banks[code] = {
    ...(f?.type ? { type: f.type } : {}),
    ...(f?.upi === undefined ? {} : { upi: f.upi }),
    n: encodeNumbers(numbers),
    s: texts.join(','),
  };
}
// Facts of sub-member banks (they use a sponsor's IFSCs and issue none of their own).
for (const [code, f] of Object.entries(facts)) {
  if (Object.hasOwn(branches, code)) continue;
  file.members[code] = { ...(f.type ? { type: f.type } : {}), ...(f.upi === undefined ? {} : { upi: f.upi }) };
}
// Names of every code: issuing banks and the sub-members that use a sponsor's IFSCs.
for (const [code, name] of Object.entries(names)) file.names[code] = name;
for (const [key, code] of Object.entries(customSublets)) {
  if (key.length === 11) file.sublets[key] = code;
  else file.subletPrefixes[key] = code;
}

const json = JSON.stringify(file);
const gz = zlib.gzipSync(json, { level: 9 });
const out = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'input', 'data', 'ifsc-registry.json.gz');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, gz);
const codes = Object.values(branches).reduce((n, l) => n + l.length, 0);
console.log(`${out}: ${Object.keys(file.banks).length} banks, ${codes} IFSCs, ${Object.keys(file.sublets).length} sublet codes; ${json.length} bytes of JSON, ${gz.length} gzipped`);
