/** The .xlsx sink of the output (docs/ARCHITECTURE.md, "Layout", src/output/). */
import fs from 'node:fs';
import { OutputError } from '../errors.js';
import type { OutputSink, SinkPlace } from './types.js';
import { openXlsxWriter, type XlsxSource } from './xlsx.js';

/** The .xlsx sink: the same temporary file and rename as the CSV one; the input's workbook kept when it was one (xlsx.ts). */
export function openXlsxSink(place: SinkPlace, first: readonly (readonly string[])[], source: XlsxSource | undefined): OutputSink {
  const { outputPath, target, temp } = place;
  const book = openXlsxWriter(temp, undefined, source);
  let failure: Error | undefined;
  const guard = async (task: () => Promise<void>) => {
    if (failure) throw new OutputError(`cannot write ${temp}: ${failure.message}`);
    try {
      await task();
    } catch (error) {
      failure = error as Error;
      throw new OutputError(`cannot write ${temp}: ${failure.message}`);
    }
  };
  const started = guard(() => book.writeRows(first));
  started.catch(() => undefined);
  return {
    writeRows: async (rows) => {
      await started;
      await guard(() => book.writeRows(rows));
    },
    async commit() {
      await started;
      await guard(() => book.commit());
      try {
        await fs.promises.rename(temp, target);
      } catch (error) {
        throw new OutputError(`cannot write ${outputPath}: ${(error as Error).message}`);
      }
    },
    async discard() {
      await book.discard();
    },
  };
}
