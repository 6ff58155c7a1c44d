/** The .xlsx sink of the output (docs/ARCHITECTURE.md, "Layout", src/output/). */
import type { AppError } from '../errors.js';
import { outputWriteError, renameOutput } from './temp-file.js';
import type { OutputSink, SinkPlace } from './types.js';
import { openXlsxWriter, type XlsxSource } from './xlsx.js';

/** The .xlsx sink: the same temporary file and rename as the CSV one; the input's workbook kept when it was one (xlsx.ts). */
export function openXlsxSink(place: SinkPlace, first: readonly (readonly string[])[], source: XlsxSource | undefined): OutputSink {
  const { outputPath, target, temp } = place;
  const book = openXlsxWriter(temp, undefined, source);
  let failure: AppError | undefined;
  const guard = async (task: () => Promise<void>) => {
    if (failure) throw failure;
    try {
      await task();
    } catch (error) {
      failure = outputWriteError(outputPath, error);
      throw failure;
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
      try {
        await started;
        await guard(() => book.commit());
      } catch (error) {
        await book.discard(); // the temporary file removed (nothing if the writer already did)
        throw error;
      }
      await renameOutput(temp, target, outputPath);
    },
    async discard() {
      await book.discard();
    },
  };
}
