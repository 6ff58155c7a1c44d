/**
 * The layout's rules (docs/ARCHITECTURE.md, "Layout"), checked on the source: no import cycle
 * anywhere in src/ (type-only imports included: a cycle of types is still a tangle), and no
 * arrow pointing up from the building blocks (input/, api/, match/, limiter/, state/) to the flows
 * built on them (pipeline/, report/, docs/, sandbox/, cli/). Imports are read with TypeScript's own
 * pre-processor, so comments and strings cannot fool it. And no function in src/ is longer than
 * MAX_FUNCTION_LINES (issue #15: a function a reader can hold in mind), closures counted with
 * the function that holds them: a factory returning an object of inner functions is as long
 * as all of them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Each module of src/ and the modules of src/ it imports (relative specifiers only). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles
      .map((f) => f.fileName)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => path.resolve(path.dirname(file), spec).replace(/\.js$/, '.ts'))
      .filter((target) => fs.existsSync(target));
    graph.set(path.relative(SRC, file), [...new Set(targets.map((t) => path.relative(SRC, t)))]);
  }
  return graph;
}

/** Every cycle, each once, as a list of modules (Tarjan's strongly connected components). */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) {
        low.set(v, Math.min(low.get(v)!, idx.get(w)!));
      }
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

test('no import cycle anywhere in src/', () => {
  const graph = importGraph();
  assert.ok(graph.size > 50, `read ${graph.size} modules`);
  assert.deepEqual(cycles(graph), []);
});

test('the cycle finder finds a cycle', () => {
  const graph = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]);
  assert.deepEqual(cycles(graph), [['a', 'b', 'c']]);
});

/** The building blocks: they never import the flows built on them. */
const BELOW_THE_FLOWS = ['input/', 'api/', 'match/', 'decision/', 'limiter/', 'state/'];
const FLOWS = ['pipeline/', 'report/', 'docs/', 'sandbox/', 'cli/'];

test('no arrow points up: input/, api/, match/, limiter/, state/ never import pipeline/, report/, docs/, sandbox/ or cli/; nothing outside cli/ imports cli/', () => {
  const upward: string[] = [];
  for (const [from, targets] of importGraph()) {
    for (const to of targets) {
      const below = BELOW_THE_FLOWS.some((folder) => from.startsWith(folder));
      if (below && FLOWS.some((folder) => to.startsWith(folder))) upward.push(`${from} -> ${to}`);
      if (!from.startsWith('cli/') && to.startsWith('cli/')) upward.push(`${from} -> ${to}`);
    }
  }
  assert.deepEqual(upward, []);
});

test('better-sqlite3 is imported in src/state/ only: the state owns its SQL (the report reads through src/state/report-reader.ts)', () => {
  const outside = sourceFiles(SRC)
    .filter((file) => !path.relative(SRC, file).startsWith(`state${path.sep}`))
    .filter((file) => ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles.some((f) => f.fileName === 'better-sqlite3'))
    .map((file) => path.relative(SRC, file));
  assert.deepEqual(outside, []);
});

test('the public API names each export (src/index.ts has no export *)', () => {
  const index = fs.readFileSync(path.join(SRC, 'index.ts'), 'utf8');
  assert.doesNotMatch(index, /^\s*export\s+(type\s+)?\*/m);
});

/** Longest function allowed in src/, from its first line to its last. */
const MAX_FUNCTION_LINES = 80;

/** Every function, method, constructor, accessor and arrow in a source text longer than `max` lines, as "file:line name (n lines)". */
function longFunctions(fileName: string, text: string, max: number): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) {
        const named = node.name?.getText(source) ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(source) : '(anonymous)');
        found.push(`${fileName}:${first + 1} ${named} (${lines} lines)`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test(`no function in src/ is longer than ${MAX_FUNCTION_LINES} lines`, () => {
  const long = sourceFiles(SRC)
    .map((file) => path.relative(SRC, file))
    .flatMap((file) => longFunctions(file, fs.readFileSync(path.join(SRC, file), 'utf8'), MAX_FUNCTION_LINES));
  assert.deepEqual(long, []);
});

test('the length check finds long functions, closures and methods included', () => {
  const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
  const text = [
    `function short() {\n${body(3)}\n}`,
    `export function createThing() {\n${body(79)}\n  return { go() {} };\n}`,
    // 80 lines: at the limit, allowed.
    `const arrow = () => {\n${body(78)}\n};`,
    `class Thing {\n  method() {\n${body(79)}\n  }\n}`,
  ].join('\n');
  assert.deepEqual(longFunctions('t.ts', text, MAX_FUNCTION_LINES), [
    't.ts:6 createThing (82 lines)',
    't.ts:169 method (81 lines)',
  ]);
  assert.deepEqual(longFunctions('t.ts', `const arrow = () => {\n${body(79)}\n};`, MAX_FUNCTION_LINES), ['t.ts:1 arrow (81 lines)']);
});

test('comments cite docs/ARCHITECTURE.md, never a design file outside the repository', () => {
  const outside = sourceFiles(SRC)
    .flatMap((file) => fs.readFileSync(file, 'utf8').split('\n').map((line, i) => ({ file, line, n: i + 1 })))
    .filter(({ line }) => /\bDESIGN\.md\b/.test(line))
    .map(({ file, n }) => `${path.relative(SRC, file)}:${n}`);
  assert.deepEqual(outside, []);
});
