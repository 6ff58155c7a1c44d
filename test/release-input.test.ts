/**
 * The release reads the input as the run read it (run_stats.input, recorded by the bank run): a
 * workbook with two payee sheets, the run told --sheet, released without being told again.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import ExcelJS from 'exceljs';
import { runCli, tempDir } from './helpers/cli.js';

test('release of a workbook whose payee sheet the run was told with --sheet: the same sheet, without --sheet', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'holders.csv'), 'accountNumber,ifsc,name,status\n860000000011,SBIN0001234,ASHA RAO,VERIFIED\n860000000012,SBIN0001234,VIKRAM SINGH,VERIFIED\n');
  const book = new ExcelJS.Workbook();
  for (const name of ['October', 'November']) {
    const sheet = book.addWorksheet(name);
    sheet.addRow(['Beneficiary Name', 'Account Number', 'IFSC']);
    sheet.addRow(['Asha Rao', '860000000011', 'SBIN0001234']);
    sheet.addRow(['Ravi Kumar', '860000000012', 'SBIN0001234']);
  }
  await book.xlsx.writeFile(path.join(dir, 'payees.xlsx'));
  const run = await runCli(['bank', 'payees.xlsx', '-o', 'out.xlsx', '--sheet', 'November', '--state', 's.sqlite', '--sandbox', '--sandbox-accounts', 'holders.csv'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  const release = await runCli(['release', '-o', 'payout.xlsx', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(release.code, 0, release.stderr);
  const out = new ExcelJS.Workbook();
  await out.xlsx.readFile(path.join(dir, 'payout.xlsx'));
  const rows = (name: string) => {
    const values: unknown[][] = [];
    out.getWorksheet(name)!.eachRow((row) => values.push((row.values as unknown[]).slice(1)));
    return values;
  };
  assert.deepEqual(rows('November'), [['Beneficiary Name', 'Account Number', 'IFSC'], ['Asha Rao', '860000000011', 'SBIN0001234']]);
  assert.equal(rows('October').length, 3, 'the other sheet as it was');
});
