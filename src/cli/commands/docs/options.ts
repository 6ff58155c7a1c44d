/**
 * `vas-verify docs`: the document-locker commands' flags (docs/ARCHITECTURE.md, "Document locker"). The commands themselves
 * live in ./index.ts and are loaded only when one runs, so other commands start faster.
 */
import type { Argv } from 'yargs';
import { DEFAULT_WAIT_TIMEOUT } from '../../../docs/poll.js';
import { DEFAULT_STATE_FILE } from '../../config.js';
import type { CommandContext, CommandIo, GlobalFlags } from '../../io.js';

/** Sessions `docs fetch` lists without an id. */
export const DEFAULT_LIST_LIMIT = 20;

export type DocsIo = CommandIo;

// ---- flags ----

interface CommonFlags {
  state?: string | undefined;
  baseUrl?: string | undefined;
  sandbox: boolean;
}

export interface DocsInitFlags extends CommonFlags {
  pin: boolean;
  successWebhook?: string | undefined;
  failureWebhook?: string | undefined;
  listen?: string | undefined;
  json: boolean;
}

export interface DocsFetchFlags extends CommonFlags {
  sessionId?: string | undefined;
  wait: boolean;
  timeout?: string | undefined;
  download?: string | undefined;
  json: boolean;
  limit: number;
}

export interface DocsListenFlags extends CommonFlags {
  host: string;
  port: number;
  publicUrl?: string | undefined;
  fetch: boolean;
  download?: string | undefined;
}

/** The commands themselves (./index.ts), loaded only when one runs so other commands start faster. */
export interface DocsCommands {
  docsInit(flags: DocsInitFlags, io: DocsIo): Promise<number>;
  docsFetch(flags: DocsFetchFlags, io: DocsIo): Promise<number>;
  docsListen(flags: DocsListenFlags, io: DocsIo): Promise<number>;
}

function commonOptions<T>(y: Argv<T>) {
  return y
    .option('state', { type: 'string', describe: `State file (env VAS_STATE, default ${DEFAULT_STATE_FILE})` })
    .option('base-url', { type: 'string', describe: 'API base URL (env VAS_BASE_URL)' })
    .option('sandbox', { type: 'boolean', default: false, describe: 'Use an in-process sandbox (it stops when the command ends)' });
}

function common(args: Record<string, unknown>): CommonFlags {
  return { state: args.state as string | undefined, baseUrl: args['base-url'] as string | undefined, sandbox: args.sandbox === true };
}

type DocsContext = CommandContext<DocsCommands>;

export function registerDocsCommands<T>(y: Argv<T>, ctx: DocsContext): Argv<T> {
  return y.command('docs', 'Document-locker flow: init, fetch, listen', (c) =>
    registerListen(registerFetch(registerInit(c, ctx), ctx), ctx).demandCommand(1, 'name a docs command: init, fetch or listen'),
  );
}

function registerInit<T>(y: Argv<T>, ctx: DocsContext): Argv<T> {
  return y.command(
    'init',
    'Start a document-locker session and print the URL to send the user to',
    (c) =>
      commonOptions(c)
        .option('pin', { type: 'boolean', default: false, describe: 'PIN-based verification (default: pinless)' })
        .option('success-webhook', { type: 'string', describe: 'URL the API calls when the user approves' })
        .option('failure-webhook', { type: 'string', describe: 'URL the API calls when the user denies' })
        .option('listen', { type: 'string', describe: 'Base URL of a running `docs listen` (same --state): use its callback URLs' })
        .option('json', { type: 'boolean', default: false, describe: 'Print {sessionId, url, …} as JSON' })
        .example('$0 docs init --base-url https://api.example.com', 'Pinless session, no callbacks')
        .example('$0 docs init --listen http://127.0.0.1:8787 --json', 'Callbacks to a running `docs listen`'),
    (args) =>
      ctx.run(async () =>
        (await ctx.load()).docsInit(
          {
            ...common(args),
            pin: args.pin,
            successWebhook: args['success-webhook'],
            failureWebhook: args['failure-webhook'],
            listen: args.listen,
            json: args.json,
          },
          ctx.io(args as GlobalFlags),
        ),
      ),
  );
}

function registerFetch<T>(y: Argv<T>, ctx: DocsContext): Argv<T> {
  return y.command(
    'fetch [sessionId]',
    'Fetch the documents of a session (no id: list recent sessions)',
    (c) =>
      commonOptions(c)
        .positional('sessionId', { type: 'string', describe: 'Session id printed by `docs init`' })
        .option('wait', { type: 'boolean', default: false, describe: 'Poll (with backoff) until the session completes' })
        .option('timeout', { type: 'string', describe: `Longest --wait, e.g. 15m (default ${DEFAULT_WAIT_TIMEOUT})` })
        .option('download', { type: 'string', describe: 'Save each PDF and XML under DIR/<sessionId>/ (mode 0600)' })
        .option('json', { type: 'boolean', default: false, describe: 'Print the result as JSON' })
        .option('limit', { type: 'number', default: DEFAULT_LIST_LIMIT, describe: 'Sessions to list when no id is given' })
        .example('$0 docs fetch 3f6c… --wait --download kyc-docs', 'Wait for consent, then save the files')
        .example('$0 docs fetch', 'List recent sessions and their status'),
    (args) =>
      ctx.run(async () =>
        (await ctx.load()).docsFetch(
          {
            ...common(args),
            sessionId: args.sessionId,
            wait: args.wait,
            timeout: args.timeout,
            download: args.download,
            json: args.json,
            limit: args.limit,
          },
          ctx.io(args as GlobalFlags),
        ),
      ),
  );
}

function registerListen<T>(y: Argv<T>, ctx: DocsContext): Argv<T> {
  return y.command(
    'listen',
    'Receive the success and failure callbacks (until SIGINT/SIGTERM)',
    (c) =>
      commonOptions(c)
        .option('host', { type: 'string', default: '127.0.0.1', describe: 'Address to bind' })
        .option('port', { type: 'number', default: 0, describe: 'Port (0 picks a free one; a fixed port keeps its callback URLs across restarts)' })
        .option('public-url', { type: 'string', describe: 'Base URL the API must call, when not http://HOST:PORT (reverse proxy, tunnel)' })
        .option('fetch', { type: 'boolean', default: false, describe: 'On a success callback, fetch the session (needs --download)' })
        .option('download', { type: 'string', describe: 'With --fetch: save the documents under DIR/<sessionId>/' })
        .example('$0 docs listen --port 8787 --fetch --download kyc-docs --base-url https://api.example.com', ''),
    (args) =>
      ctx.run(async () =>
        (await ctx.load()).docsListen(
          {
            ...common(args),
            host: args.host,
            port: args.port,
            publicUrl: args['public-url'],
            fetch: args.fetch,
            download: args.download,
          },
          ctx.io(args as GlobalFlags),
        ),
      ),
  );
}
