/**
 * `vas-verify docs`: the document-locker flow (docs/ARCHITECTURE.md, "Document locker") — init, fetch, listen. This file
 * does the I/O (flags, state file, stdout, signals); the decisions live in src/docs/.
 *
 * Exit codes: 0 ok · 1 fatal (expired session, consent denied, a file not saved) · 2 usage or
 * bad input · 3 not complete yet (`--wait` timed out, stopped, or pending without `--wait`).
 */
import { once } from 'node:events';
import path from 'node:path';
import type { Client } from '../../../api/client.js';
import type { DocFetchResult } from '../../../api/schemas.js';
import { isVasError } from '../../../api/errors.js';
import {
  checkWebhookUrl,
  DEFAULT_WAIT_TIMEOUT,
  fetchDocuments,
  formatDocumentsTable,
  formatSessionsTable,
  isSafeSessionId,
  checkDownloadDir,
  saveDocuments,
  toDocumentView,
  type FetchOutcome,
  type SaveReport,
} from '../../../docs/index.js';
import { apiKey, checkSessionApi, explainFetchError } from '../../../docs/session-errors.js';
import { WebhookListenService } from '../../../docs/listen-service.js';
import { UsageError } from '../../../errors.js';
import { formatIst } from '../../../ist.js';
import { parseDuration } from '../../../pipeline/time.js';
import { openDatabase, type Db } from '../../../state/db.js';
import { DocsStore } from '../../../state/docs-store.js';
import { resolveStatePath } from '../../config.js';
import { connect, limitOptions, resolveApiConnection, type Connected } from '../../connect.js';
import type { Connection } from '../../config.js';
import type { DocsFetchFlags, DocsInitFlags, DocsIo, DocsListenFlags } from './options.js';
import { shellCommand } from '../../../shell-quote.js';
import { listenError } from '../../listen-error.js';

const EXIT = { ok: 0, fatal: 1, incomplete: 3 } as const;

// ---- shared ----

interface StateHandle {
  db: Db;
  store: DocsStore;
  path: string;
  close(): void;
}

function openState(flag: string | undefined, io: DocsIo): StateHandle {
  const statePath = resolveStatePath(flag, io.env);
  const db = openDatabase(statePath);
  const store = new DocsStore(db, io.now);
  let closed = false;
  return {
    db,
    store,
    path: statePath,
    close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}

/** The API a session is recorded with (session-errors.ts apiKey): null for the embedded sandbox. */
function apiOf(connection: Connection): string | null {
  return apiKey(connection.kind === 'remote' ? connection.baseUrl : undefined);
}

function baseUrlKey(text: string): string | undefined {
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.toString().replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}

function webhookFlag(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const check = checkWebhookUrl(value);
  if (!check.ok) throw new UsageError(`--${name} "${value}" is not usable: ${check.reason}`);
  return check.url;
}

/**
 * The API's session ids are UUIDs (its init answer is refused otherwise): anything else on the
 * command line is a mistyped or cut id, an input error said before any call, not a session the
 * API calls expired.
 */
const SESSION_ID_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkSessionId(sessionId: string): string {
  const id = sessionId.trim();
  if (!isSafeSessionId(id) || !SESSION_ID_UUID.test(id)) {
    throw new UsageError(`"${sessionId}" is not a session id: use the id printed by \`vas-verify docs init\` (a UUID)`);
  }
  return id;
}

// ---- docs init ----

export async function docsInit(flags: DocsInitFlags, io: DocsIo): Promise<number> {
  const { log } = io;
  // Every check on input happens before a call is made (and before any state is touched).
  let successWebhookUrl = webhookFlag('success-webhook', flags.successWebhook);
  let failureWebhookUrl = webhookFlag('failure-webhook', flags.failureWebhook);
  const listenKey = flags.listen === undefined ? undefined : baseUrlKey(flags.listen);
  if (flags.listen !== undefined) {
    if (listenKey === undefined) throw new UsageError(`--listen "${flags.listen}" is not an http(s) URL: give the base URL \`docs listen\` printed, e.g. http://127.0.0.1:8787`);
    if (successWebhookUrl !== undefined || failureWebhookUrl !== undefined) {
      throw new UsageError('--listen already sets both callback URLs: leave out --success-webhook and --failure-webhook');
    }
  }
  const connection = resolveApiConnection({ baseUrl: flags.baseUrl, sandbox: flags.sandbox }, io.env, log);
  const limits = limitOptions(flags);
  const state = openState(flags.state, io);
  let connected: Connected | undefined;
  try {
    if (listenKey !== undefined) {
      const listener = state.store.findListener(listenKey);
      if (listener === undefined) {
        throw new UsageError(
          `no \`docs listen\` at ${listenKey} is recorded in ${state.path}: start \`vas-verify docs listen\` with the same --state and pass the URL it prints after "listening on"`,
        );
      }
      if (listener.stoppedAt !== null) {
        log.warn(`the listener at ${listenKey} stopped at ${formatIst(listener.stoppedAt)}: callbacks will fail until it runs again on the same address`);
      }
      successWebhookUrl = listener.successUrl;
      failureWebhookUrl = listener.failureUrl;
    }
    connected = await connect(connection, log, limits);
    if (connected.sandbox !== undefined) {
      log.warn('the embedded sandbox stops when this command ends, and its consent page with it: for a page that stays up run `vas-verify sandbox` and pass --base-url');
    }
    const pinless = !flags.pin;
    const { result, requestId } = await connected.client.docInit(
      {
        pinlessVerification: pinless,
        ...(successWebhookUrl === undefined ? {} : { successWebhookUrl }),
        ...(failureWebhookUrl === undefined ? {} : { failureWebhookUrl }),
      },
      { signal: io.stopSignal },
    );
    state.store.addSession({ sessionId: result.sessionId, url: result.url, pinless, status: 'Pending', api: apiOf(connection) });
    if (flags.json) {
      const out = {
        sessionId: result.sessionId,
        url: result.url,
        pinless,
        callbacks: successWebhookUrl !== undefined || failureWebhookUrl !== undefined,
        requestId: requestId ?? null,
      };
      io.stdout(`${JSON.stringify(out)}\n`);
    } else {
      io.stdout(`session id: ${result.sessionId}\nsend the user to: ${result.url}\n`);
      log.info(`when the user has answered: ${shellCommand(['vas-verify', 'docs', 'fetch', result.sessionId, '--wait'])} --download DIR`);
    }
    return EXIT.ok;
  } finally {
    await connected?.close();
    state.close();
  }
}

// ---- docs fetch ----

export async function docsFetch(flags: DocsFetchFlags, io: DocsIo): Promise<number> {
  if (flags.sessionId === undefined) {
    if (flags.wait || flags.download !== undefined || flags.timeout !== undefined) {
      throw new UsageError('--wait, --timeout and --download need a session id: vas-verify docs fetch <sessionId> …');
    }
    return listSessions(flags, io);
  }
  const sessionId = checkSessionId(flags.sessionId);
  if (flags.timeout !== undefined && !flags.wait) throw new UsageError('--timeout only applies with --wait');
  const timeoutMs = parseDuration(flags.timeout ?? DEFAULT_WAIT_TIMEOUT, '--timeout');
  if (timeoutMs <= 0) throw new UsageError('--timeout must be longer than 0');
  if (flags.download !== undefined && flags.download.trim() === '') throw new UsageError('--download needs a directory');

  const { log } = io;
  const connection = resolveApiConnection({ baseUrl: flags.baseUrl, sandbox: flags.sandbox }, io.env, log);
  const limits = limitOptions(flags);
  // A directory the files cannot go in fails now, not after the user has approved.
  if (flags.download !== undefined) checkDownloadDir(flags.download);
  const state = openState(flags.state, io);
  let connected: Connected | undefined;
  try {
    // Another --base-url than the session's own would only hear "session unknown".
    checkSessionApi(sessionId, apiOf(connection), state.store);
    connected = await connect(connection, log, limits);
    let outcome: FetchOutcome;
    try {
      outcome = await fetchDocuments(connected.client, sessionId, {
        wait: flags.wait,
        timeoutMs,
        signal: io.stopSignal,
        now: io.now,
        onPending: (status, attempt, delay) => {
          if (attempt === 1) log.info(`session ${sessionId} is ${status}: waiting for the user (up to ${flags.timeout ?? DEFAULT_WAIT_TIMEOUT})`);
          else if (attempt % 5 === 0) log.info(`still ${status} after ${attempt} checks; next in ${Math.round(delay / 1000)} s`);
        },
      });
    } catch (error) {
      throw explainFetchError(error, sessionId, state.store);
    }
    return await reportFetch(outcome, sessionId, flags, io, state.store, connected.client);
  } finally {
    await connected?.close();
    state.close();
  }
}

async function reportFetch(
  outcome: FetchOutcome,
  sessionId: string,
  flags: DocsFetchFlags,
  io: DocsIo,
  store: DocsStore,
  client: Client,
): Promise<number> {
  const { log } = io;
  const waitHint = shellCommand(['vas-verify', 'docs', 'fetch', sessionId, '--wait', ...(flags.download === undefined ? [] : ['--download', flags.download])]);
  switch (outcome.kind) {
    case 'timeout': {
      if (outcome.lastStatus !== null) store.setStatus(sessionId, outcome.lastStatus);
      if (flags.json) io.stdout(`${JSON.stringify({ sessionId, status: outcome.lastStatus, documents: [], timedOut: true })}\n`);
      log.error(
        `gave up after ${flags.timeout ?? DEFAULT_WAIT_TIMEOUT}: session ${sessionId} is still ${outcome.lastStatus ?? 'not answered'}; the user has not approved yet. Wait longer with: ${waitHint} --timeout 30m`,
      );
      return EXIT.incomplete;
    }
    case 'stopped': {
      if (outcome.lastStatus !== null) store.setStatus(sessionId, outcome.lastStatus);
      log.warn(`stopped before session ${sessionId} completed; continue with: ${waitHint}`);
      return EXIT.incomplete;
    }
    case 'pending': {
      store.setStatus(sessionId, outcome.result.status);
      if (flags.json) printFetchJson(io, outcome.result, outcome.requestId, undefined);
      else io.stdout(`session ${sessionId}: ${outcome.result.status} (no documents yet)\n`);
      log.warn(`session ${sessionId} is ${outcome.result.status}: the user has not approved yet. Wait for it with: ${waitHint}`);
      return EXIT.incomplete;
    }
    case 'failed': {
      store.setStatus(sessionId, outcome.result.status);
      if (flags.json) printFetchJson(io, outcome.result, outcome.requestId, undefined);
      else io.stdout(`session ${sessionId}: ${outcome.result.status}\n`);
      const callback = store.webhookEvents(sessionId).find((event) => event.kind === 'failure');
      const seen = callback === undefined ? '' : ` (failure callback received ${formatIst(callback.receivedAt)})`;
      log.error(`session ${sessionId} ended as ${outcome.result.status}${seen}: no documents were shared. Start a new session with \`vas-verify docs init\``);
      return EXIT.fatal;
    }
    case 'completed':
      break;
  }
  const { result, requestId } = outcome;
  let report: SaveReport | undefined;
  if (flags.download !== undefined) {
    try {
      report = await download(client, flags.download, sessionId, result, io.stopSignal);
    } catch (error) {
      if (!(isVasError(error) && error.code === 'aborted' && io.stopSignal.aborted)) throw error;
      // Stopped while saving: what was saved stays (a re-run finds it "already saved").
      store.setStatus(sessionId, result.status);
      log.warn(`stopped while saving the documents of session ${sessionId}; continue with: ${waitHint}`);
      return EXIT.incomplete;
    }
  }
  // Absolute: the listing is read from other directories than this one.
  store.recordFetch(sessionId, result.status, report === undefined ? [] : report.files.map((f) => path.resolve(f.path)), report === undefined || report.failures.length === 0);
  if (flags.json) {
    printFetchJson(io, result, requestId, report);
  } else {
    io.stdout(`session ${sessionId}: ${result.status}, ${result.documents.length} document(s)\n`);
    if (result.documents.length > 0) io.stdout(formatDocumentsTable(result.documents));
    if (report !== undefined) {
      for (const file of report.files) io.stdout(`${file.state === 'saved' ? 'saved' : 'already saved'}: ${file.path} (from ${file.source})\n`);
    }
  }
  if (report !== undefined) {
    for (const failure of report.failures) log.error(`${failure.docType} ${failure.format.toUpperCase()}: ${failure.reason}`);
    if (report.failures.length > 0) {
      log.error(`${report.failures.length} file(s) of session ${sessionId} were not saved; the others are in ${report.directory}`);
      return EXIT.fatal;
    }
  }
  return EXIT.ok;
}

/** A DownloadDirError (nothing could be saved) ends the command with exit 2 (src/cli/exit.ts). */
async function download(client: Client, dir: string, sessionId: string, result: DocFetchResult, signal: AbortSignal): Promise<SaveReport> {
  return saveDocuments(client, { dir, sessionId, documents: result.documents, signal });
}

function printFetchJson(io: DocsIo, result: DocFetchResult, requestId: string | undefined, report: SaveReport | undefined): void {
  const out = {
    sessionId: result.sessionId,
    status: result.status,
    requestId: requestId ?? null,
    documents: result.documents.map((doc) => toDocumentView(doc)),
    ...(report === undefined
      ? {}
      : {
          directory: report.directory,
          files: report.files.map((f) => ({ docType: f.docType, format: f.format, path: f.path, state: f.state, source: f.source })),
          failures: report.failures,
        }),
  };
  io.stdout(`${JSON.stringify(out, null, 2)}\n`);
}

function listSessions(flags: DocsFetchFlags, io: DocsIo): number {
  if (!Number.isInteger(flags.limit) || flags.limit < 1) throw new UsageError('--limit must be a whole number ≥ 1');
  const state = openState(flags.state, io);
  try {
    const sessions = state.store.listSessions(flags.limit);
    const callbacks = state.store.lastCallbackKinds(sessions.map((s) => s.sessionId));
    const rows = sessions.map((s) => ({
      sessionId: s.sessionId,
      createdAt: s.createdAt,
      status: s.status,
      fetchedAt: s.fetchedAt,
      files: s.files,
      lastCallback: callbacks.get(s.sessionId) ?? null,
    }));
    if (flags.json) {
      const out = rows.map((r) => ({
        ...r,
        createdAt: new Date(r.createdAt).toISOString(),
        fetchedAt: r.fetchedAt === null ? null : new Date(r.fetchedAt).toISOString(),
      }));
      io.stdout(`${JSON.stringify(out, null, 2)}\n`);
    } else {
      io.stdout(formatSessionsTable(rows));
    }
    return EXIT.ok;
  } finally {
    state.close();
  }
}

// ---- docs listen ----

export async function docsListen(flags: DocsListenFlags, io: DocsIo): Promise<number> {
  const { log } = io;
  const publicUrl = checkListenFlags(flags);
  const connection = flags.fetch ? resolveApiConnection({ baseUrl: flags.baseUrl, sandbox: flags.sandbox }, io.env, log) : undefined;
  const limits = limitOptions(flags);
  if (flags.download !== undefined) checkDownloadDir(flags.download);
  const state = openState(flags.state, io);
  let connected: Connected | undefined;
  let service: WebhookListenService | undefined;
  try {
    if (connection !== undefined) connected = await connect(connection, log, limits);
    service = new WebhookListenService({
      store: state.store, client: connected?.client, api: connection === undefined ? null : apiOf(connection), download: flags.download, log, out: io.stdout, now: io.now, pid: process.pid,
    });
    const listener = await service.start(flags.host, flags.port, publicUrl).catch((error: unknown) => {
      throw listenError(error, flags.host, flags.port);
    });
    io.stdout(`listening on ${listener.listenUrl}\nsuccess webhook: ${listener.successUrl}\nfailure webhook: ${listener.failureUrl}\n`);
    log.info(`start sessions that call back here with: ${shellCommand(['vas-verify', 'docs', 'init', '--listen', listener.publicUrl, ...(flags.state === undefined ? [] : ['--state', flags.state])])}`);

    if (!io.stopSignal.aborted) await once(io.stopSignal, 'abort');
    log.info('stopping: no new callbacks are accepted');
  } finally {
    await service?.close();
    await connected?.close();
    state.close();
  }
  return EXIT.ok;
}

/** The listen flags checked; returns the public URL without its trailing slashes. */
function checkListenFlags(flags: DocsListenFlags): string | undefined {
  if (flags.fetch && flags.download === undefined) throw new UsageError('--fetch needs --download DIR: the directory to save the documents in');
  if (!flags.fetch && flags.download !== undefined) throw new UsageError('--download on `docs listen` needs --fetch');
  if (flags.download !== undefined && flags.download.trim() === '') throw new UsageError('--download needs a directory');
  if (!Number.isInteger(flags.port) || flags.port < 0 || flags.port > 65535) throw new UsageError('--port must be 0-65535');
  // Every interface is no address to call: the sessions would be told to call back 0.0.0.0, and every callback would be lost.
  if (flags.publicUrl === undefined && ['0.0.0.0', '::', '[::]'].includes(flags.host)) {
    throw new UsageError(`--host ${flags.host} listens on every interface, but the API cannot call back ${flags.host}: add --public-url with the address the API reaches (http://THIS-HOST:PORT, or your proxy's)`);
  }
  if (flags.publicUrl === undefined) return undefined;
  const check = checkWebhookUrl(flags.publicUrl);
  if (!check.ok) throw new UsageError(`--public-url "${flags.publicUrl}" is not usable: ${check.reason}`);
  return check.url.replace(/\/+$/, '');
}
