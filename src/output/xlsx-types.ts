/** The .xlsx output's shapes (src/output/xlsx.ts), apart so that its writers share them without a cycle. */

/** The .xlsx input an output copies. */
export interface XlsxSource {
  /** The input workbook. */
  file: string;
  /** Its payee sheet (the summary's `input.sheet`). */
  sheet: string;
  /** Where its shared strings may spool (the state file's folder). Default: none. */
  spoolDir?: string | undefined;
  /** Columns (0-based) whose number cells are written as text: the account column, which Excel would show as 5.001E+11. Default: none. */
  textColumns?: readonly number[] | undefined;
  /**
   * The header's width and the tool's columns after it: a row's cells right of the header (a note
   * beside a payee) are kept, moved past the tool's columns, as the CSV output keeps them. Default:
   * none (a row wider than the header is written as text).
   */
  columns?: { input: number; tool: number } | undefined;
}

export interface XlsxOutput {
  writeRows(rows: readonly (readonly string[])[]): Promise<void>;
  commit(): Promise<void>;
  discard(): Promise<void>;
}
