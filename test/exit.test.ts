/** src/cli/exit.ts: errors become exit codes by class and kind, and an unknown error is a bug. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VasError } from '../src/api/errors.js';
import { AppError, ColumnError, InputError, OutputError, RunLockedError, StateFileError, UsageError } from '../src/errors.js';
import { exitCodeFor, reportError } from '../src/cli/exit.js';

test('every error of the family carries its kind and exit code; the CLI reads them, not names', () => {
  const table: Array<[unknown, string | null, number]> = [
    [new UsageError('u'), 'usage', 2],
    [new InputError('i'), 'input', 2],
    [new ColumnError('c'), 'input', 2],
    [new OutputError('o'), 'output', 2],
    [new StateFileError('s'), 'state-file', 2],
    [new RunLockedError('r'), 'run-locked', 1],
    [VasError.invalidInput({ message: 'bad base url' }), 'invalid-input', 2],
    [VasError.invalidInput({ message: 'Invalid Request', status: 400 }), 'invalid-input', 1],
    [VasError.auth({ message: 'Invalid Credentials', status: 401 }), 'auth', 1],
    [new Error('surprise'), null, 1],
    ['a string', null, 1],
  ];
  for (const [error, kind, code] of table) {
    assert.equal(error instanceof AppError ? error.kind : null, kind, String(error));
    assert.equal(exitCodeFor(error), code, String(error));
  }
  // A renamed error keeps its exit code: the class decides, not the name.
  const renamed = new UsageError('still usage');
  Object.defineProperty(renamed, 'name', { value: 'Whatever' });
  assert.equal(exitCodeFor(renamed), 2);
});

test('cause is passed on', () => {
  const cause = new Error('root');
  assert.equal(new StateFileError('cannot open', { cause }).cause, cause);
});

test('an unknown error is reported as a bug, with its stack only when VAS_DEBUG is set', () => {
  const lines: string[] = [];
  const log = { error: (m: string) => lines.push(m) };
  assert.equal(reportError(new TypeError('x is undefined'), log, {}), 1);
  assert.deepEqual(lines, ['internal error (this is a bug, please report it): x is undefined']);
  lines.length = 0;
  reportError(new TypeError('x is undefined'), log, { VAS_DEBUG: '1' });
  assert.equal(lines.length, 2);
  assert.match(lines[1]!, /TypeError: x is undefined\n\s+at /);
  lines.length = 0;
  assert.equal(reportError(VasError.auth({ message: 'Invalid Credentials', status: 401, requestId: 'r1' }), log, { VAS_DEBUG: '1' }), 1);
  assert.deepEqual(lines, ['Invalid Credentials (HTTP 401, request id r1)']);
});
