/** `vas-verify docs`: document-locker commands (init, fetch, listen). */
import type { Argv } from 'yargs';
import type { CommandIo } from './bank.js';

export type DocsIo = CommandIo & { stdout: (text: string) => void };

export function registerDocsCommands<T>(
  y: Argv<T>,
  _run: (task: () => Promise<number>) => Promise<void>,
  _io: (args: { quiet?: boolean; logFormat?: string }) => DocsIo,
): Argv<T> {
  return y;
}
