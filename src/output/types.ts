/** The output's shared types (src/output/): a sink, and where it writes. */

export interface OutputSink {
  /** Appends rows; resolves at once unless the file is behind (then once it has drained). */
  writeRows(rows: readonly (readonly string[])[]): Promise<void>;
  /** Finishes the temporary file and renames it into place. */
  commit(): Promise<void>;
  /** Removes the temporary file: a reader never sees a partial output. */
  discard(): Promise<void>;
}

/** Where a sink writes: the path as given (for messages), resolved, and its temporary file. */
export interface SinkPlace {
  outputPath: string;
  target: string;
  temp: string;
}
