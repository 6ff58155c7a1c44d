/**
 * `vas-verify report --state S.sqlite [--run N] -o run.html`: rebuilds a run's HTML report from
 * the state file (src/report/). `--csv` adds the name verdicts from the run's enriched CSV.
 */
import { EXIT } from '../../exit.js';
import fs from 'node:fs';
import { UsageError } from '../../../errors.js';
import { checkOutputPath } from '../../../output/sink.js';
import { writeReportFromState } from '../../../report/index.js';
import { resolveNumber, resolveStatePath } from '../../config.js';
import type { CommandIo } from '../../io.js';
import type { ReportFlags } from './options.js';
import { checkReportFiles } from '../../distinct-files.js';

export async function reportCommand(flags: ReportFlags, io: CommandIo): Promise<number> {
  const statePath = resolveStatePath(flags.state, io.env);
  if (flags.run !== undefined && !(Number.isInteger(flags.run) && flags.run > 0)) throw new UsageError('--run must be a run id (a whole number ≥ 1)');
  if (flags.limit !== undefined && !(Number.isInteger(flags.limit) && flags.limit >= 0)) throw new UsageError('--limit must be a whole number ≥ 0');
  if (!fs.existsSync(statePath)) throw new UsageError(`state file ${statePath} does not exist: give the --state of the run`);
  if (flags.csv !== undefined && !fs.existsSync(flags.csv)) throw new UsageError(`--csv ${flags.csv} does not exist`);
  checkOutputPath(flags.output, '-o');
  checkReportFiles({ output: flags.output, statePath, stateFlag: flags.state !== undefined, csv: flags.csv });
  const prices = {
    pl: resolveNumber(undefined, io.env.VAS_PRICE_PL, 0, 'VAS_PRICE_PL'),
    pd: resolveNumber(undefined, io.env.VAS_PRICE_PD, 0, 'VAS_PRICE_PD'),
  };
  const stateArg = flags.state ?? io.env.VAS_STATE;
  const { runId, bytes } = await writeReportFromState({
    statePath,
    runId: flags.run,
    reportPath: flags.output,
    generatedAt: io.now(),
    csvPath: flags.csv,
    listCap: flags.limit,
    prices: io.env.VAS_PRICE_PL !== undefined || io.env.VAS_PRICE_PD !== undefined ? prices : undefined,
    stateArg,
    // Rebuilt after the run: the decisions as reviewed since (the release's), not only as the run wrote them.
    asReviewed: true,
  });
  io.log.info(`report of run ${runId}: ${flags.output} (${Math.round(bytes / 1024)} KiB)`);
  io.stdout(`${flags.output}\n`);
  return EXIT.ok;
}
