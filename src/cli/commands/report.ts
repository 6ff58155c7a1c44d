/**
 * `vas-verify report --state S.sqlite [--run N] -o run.html`: rebuilds a run's HTML report from
 * the state file (src/report/). `--csv` adds the name verdicts from the run's enriched CSV.
 */
import fs from 'node:fs';
import type { Argv, CommandModule } from 'yargs';
import { UsageError } from '../../pipeline/errors.js';
import { resolveNumber, resolveStatePath, DEFAULT_STATE_FILE } from '../config.js';
import type { CommandIo } from './bank.js';

export interface ReportFlags {
  state?: string | undefined;
  run?: number | undefined;
  output: string;
  csv?: string | undefined;
  limit?: number | undefined;
}

export async function runReportCommand(flags: ReportFlags, io: CommandIo & { stdout: (t: string) => void }): Promise<number> {
  const statePath = resolveStatePath(flags.state, io.env);
  if (flags.run !== undefined && !(Number.isInteger(flags.run) && flags.run > 0)) throw new UsageError('--run must be a run id (a whole number ≥ 1)');
  if (flags.limit !== undefined && !(Number.isInteger(flags.limit) && flags.limit >= 0)) throw new UsageError('--limit must be a whole number ≥ 0');
  if (!fs.existsSync(statePath)) throw new UsageError(`state file ${statePath} does not exist: give the --state of the run`);
  if (flags.csv !== undefined && !fs.existsSync(flags.csv)) throw new UsageError(`--csv ${flags.csv} does not exist`);
  const { checkOutputPath } = await import('../../pipeline/write.js');
  checkOutputPath(flags.output, '-o');
  const { writeReportFromState } = await import('../../report/index.js');
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
  });
  io.log.info(`report of run ${runId}: ${flags.output} (${Math.round(bytes / 1024)} KiB)`);
  io.stdout(`${flags.output}\n`);
  return 0;
}

/** The yargs command, registered by src/cli/main.ts. */
export function reportCommand(
  run: (task: () => Promise<number>) => Promise<void>,
  commandIo: (args: { quiet?: boolean; logFormat?: string }) => CommandIo,
  stdout: (t: string) => void,
): CommandModule {
  return {
    command: 'report',
    describe: 'Rebuild the HTML report of a bank run from its state file',
    builder: (y: Argv) =>
      y
        .option('state', { type: 'string', describe: `State file of the run (env VAS_STATE, default ${DEFAULT_STATE_FILE})` })
        .option('run', { type: 'number', describe: 'Run id (default: the newest run of the state)' })
        .option('output', { alias: 'o', type: 'string', demandOption: true, describe: 'HTML file to write (mode 0600)' })
        .option('csv', { type: 'string', describe: "The run's enriched CSV, for name verdicts and the rows paid at risk" })
        .option('limit', { type: 'number', describe: 'Most rows listed per table (default 50)' })
        .example('$0 report --state vas-verify.sqlite -o run.html', 'The newest run')
        .example('$0 report --state nightly.sqlite --run 12 --csv payees.verified.csv -o run12.html', 'An earlier run, with name verdicts'),
    handler: (args) =>
      run(() =>
        runReportCommand(
          {
            state: args.state as string | undefined,
            run: args.run as number | undefined,
            output: args.output as string,
            csv: args.csv as string | undefined,
            limit: args.limit as number | undefined,
          },
          { ...commandIo(args as { quiet?: boolean; logFormat?: string }), stdout },
        ),
      ),
  };
}
