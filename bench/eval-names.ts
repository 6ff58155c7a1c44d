/**
 * `npm run eval:names [corpus.csv] [--failures]`: runs the matcher over the labelled corpus and
 * prints the confusion matrix, false-accept rates, recall, and the same figures per class and per
 * source (markdown, so the summary can go straight into the README). `--failures` also lists the
 * pairs on the wrong side of the targets.
 */
import { matchNames, NAME_MATCH_RESULTS } from '../src/match/index.js';
import { classGroup, confusion, figures, isHeldOut, isVendorPair, loadCorpus, rankOf, sourceGroup, type Figures, type Scored } from '../test/helpers/name-corpus.js';

const args = process.argv.slice(2);
const showFailures = args.includes('--failures');
const path = args.find((a) => !a.startsWith('--'));
const corpus = path === undefined ? loadCorpus() : loadCorpus(path);
const scored: Scored[] = corpus.map((pair) => {
  const match = matchNames(pair.expectedName, pair.bankName);
  return { pair, result: match.result, score: match.score };
});

const pct = (x: number): string => (Number.isNaN(x) ? '–' : `${(100 * x).toFixed(1)}%`);
const short = (r: string): string => r.replace('_PARTIAL_MATCH', '').replace('_MATCH', '');

function row(name: string, f: Figures): string {
  return `| ${name} | ${f.pairs} | ${f.samePairs} | ${f.differentPairs} | ${pct(f.falseAcceptGood)} | ${pct(f.falseAcceptModerate)} | ${pct(f.recallModerate)} | ${pct(f.recallGood)} | ${pct(f.exact)} | ${pct(f.withinOne)} |`;
}
const HEAD = '| | pairs | same | different | false accept ≥ GOOD | false accept ≥ MODERATE | same ≥ MODERATE | same ≥ GOOD | exact category | within one |\n|---|---|---|---|---|---|---|---|---|---|';

function grouped(key: (s: Scored) => string): string {
  const groups = new Map<string, Scored[]>();
  for (const s of scored) groups.set(key(s), [...(groups.get(key(s)) ?? []), s]);
  return [...groups.keys()].sort().map((k) => row(k, figures(groups.get(k) ?? []))).join('\n');
}

const lines: string[] = [];
const tuning = scored.filter((s) => !isHeldOut(s.pair));
const heldOut = scored.filter((s) => isHeldOut(s.pair));
lines.push(`## Name-match evaluation (${scored.length} pairs)`, '', HEAD, row('**all**', figures(scored)), row('tuning part', figures(tuning)), row('**held-out part**', figures(heldOut)), row('vendor examples', figures(scored.filter((s) => isVendorPair(s.pair)))), '');
lines.push('Held-out part: sha1("expected|bank")[0] mod 3 == 0, never read while changing rules; the targets of issue #28 are asserted on it (test/match-corpus.test.ts).', '');
const byClass = (part: readonly Scored[]): Map<string, Figures> => {
  const groups = new Map<string, Scored[]>();
  for (const s of part) groups.set(classGroup(s.pair.klass), [...(groups.get(classGroup(s.pair.klass)) ?? []), s]);
  return new Map([...groups].map(([k, v]) => [k, figures(v)]));
};
const [tClass, hClass] = [byClass(tuning), byClass(heldOut)];
const right = (f: Figures | undefined): string => (f === undefined ? '–' : pct(1 - (f.samePairs * (1 - (Number.isNaN(f.recallModerate) ? 1 : f.recallModerate)) + f.differentPairs * (Number.isNaN(f.falseAcceptModerate) ? 0 : f.falseAcceptModerate)) / f.pairs));
lines.push('Right side of the line per class (same ≥ MODERATE, different < MODERATE), tuning | held-out:', '', '| class | tuning pairs | tuning right | held-out pairs | held-out right |', '|---|---|---|---|---|');
for (const k of [...tClass.keys()].sort()) lines.push(`| ${k} | ${tClass.get(k)?.pairs ?? 0} | ${right(tClass.get(k))} | ${hClass.get(k)?.pairs ?? 0} | ${right(hClass.get(k))} |`);
lines.push('');
lines.push('Confusion matrix (rows: expected category, columns: matcher):', '');
lines.push(`| expected \\ got | ${NAME_MATCH_RESULTS.map(short).join(' | ')} |`, `|---|${NAME_MATCH_RESULTS.map(() => '---').join('|')}|`);
const matrix = confusion(scored);
NAME_MATCH_RESULTS.forEach((r, i) => lines.push(`| ${short(r)} | ${(matrix[i] ?? []).join(' | ')} |`));
lines.push('', '### By class', '', HEAD, grouped((s) => classGroup(s.pair.klass)), '', '### By source', '', HEAD, grouped((s) => sourceGroup(s.pair.source)), '');
const vendor = scored.filter((s) => isVendorPair(s.pair));
lines.push(`Vendor examples in the published category: ${vendor.filter((s) => s.result === s.pair.expected).length}/${vendor.length}; within one step: ${vendor.filter((s) => Math.abs(rankOf(s.result) - rankOf(s.pair.expected)) <= 1).length}/${vendor.length}.`);
if (showFailures) {
  lines.push('', '### Pairs on the wrong side', '');
  // Only the tuning part: the held-out pairs are not read while changing rules.
  for (const s of tuning) {
    const bad = s.pair.same ? rankOf(s.result) > 1 : rankOf(s.result) <= 2;
    const vendorOff = isVendorPair(s.pair) && Math.abs(rankOf(s.result) - rankOf(s.pair.expected)) > 1;
    if (bad || vendorOff) lines.push(`- [${s.pair.klass}] ${s.pair.same ? 'same' : 'diff'} ${JSON.stringify(s.pair.expectedName)} ~ ${JSON.stringify(s.pair.bankName)}: ${s.result} ${s.score} (expected ${s.pair.expected})`);
  }
}
process.stdout.write(`${lines.join('\n')}\n`);
