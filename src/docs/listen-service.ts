/**
 * The webhook listener service behind `vas-verify docs listen` (docs/ARCHITECTURE.md, "Document
 * locker"): receives the success and failure callbacks, records each once in the state file, and
 * with a client and a download directory fetches and saves a session's documents as soon as its
 * success callback arrives. The CLI only starts and stops it.
 */
import path from 'node:path';
import type { Client } from '../api/client.js';
import { isVasError } from '../api/errors.js';
import type { DocsStore } from '../state/docs-store.js';
import { saveDocuments } from './download.js';
import { fetchDocuments, type FetchOutcome } from './fetch.js';
import { isSafeSessionId } from './files.js';
import { classifyStatus } from './poll.js';
import { newWebhookSecret, startWebhookListener, type WebhookListener } from './listener.js';
import { explainFetchError, otherApiProblem } from './session-errors.js';
import type { WebhookEvent } from './webhook.js';

/** How long a fetch waits for a session to show Completed after its callback. */
export const LISTEN_FETCH_WAIT_MS = 120_000;
/** How long a stop waits for fetches in progress. */
export const LISTEN_DRAIN_MS = 30_000;

export interface ListenServiceOptions {
  store: DocsStore;
  /** With `download`: fetch a session's documents on its success callback. */
  client?: Client | undefined;
  /** The API `client` talks to (session-errors.ts apiKey): sessions started with another are not fetched through it. */
  api?: string | null;
  download?: string | undefined;
  log: { info(message: string): void; warn(message: string): void; error(message: string): void };
  /** One line per recorded callback or fetch (stdout for the CLI). */
  out: (line: string) => void;
  now: () => number;
  pid: number;
}


/** How far back a starting listener fetches the sessions whose documents were not saved: a day. */
export const CATCH_UP_MS = 86_400_000;
export class WebhookListenService {
  private readonly options: ListenServiceOptions;
  private readonly stopFetches = new AbortController();
  private readonly fetching = new Map<string, Promise<void>>();
  private listener: WebhookListener | undefined;
  private stopping = false;
  private catchingUp: Promise<void> | undefined;

  constructor(options: ListenServiceOptions) {
    this.options = options;
  }

  /**
   * Starts listening. A fixed address keeps its secret across restarts, so callbacks of sessions
   * started before a restart still find their way.
   */
  async start(host: string, port: number, publicUrl: string | undefined): Promise<WebhookListener> {
    const { store } = this.options;
    const hostPart = host.includes(':') ? `[${host}]` : host;
    const previous = port === 0 ? undefined : store.getListener(`http://${hostPart}:${port}`);
    const listener = await startWebhookListener({
      host,
      port,
      secret: previous?.secret ?? newWebhookSecret(),
      publicUrl,
      onEvent: (event) => this.onEvent(event),
    });
    this.listener = listener;
    store.saveListener({
      listenUrl: listener.listenUrl,
      publicUrl: listener.publicUrl,
      secret: listener.secret,
      successUrl: listener.successUrl,
      failureUrl: listener.failureUrl,
      pid: this.options.pid,
    });
    this.catchingUp = this.catchUp().catch((error: unknown) => {
      this.options.log.error(`could not fetch the sessions left from before this start: ${error instanceof Error ? error.message : String(error)}`);
    });
    return listener;
  }

  /** Stops accepting callbacks, waits (bounded) for fetches in progress, and records the stop. */
  async close(): Promise<void> {
    const { log, store, pid } = this.options;
    this.stopping = true;
    await this.listener?.close();
    if (this.fetching.size > 0) {
      log.info(`waiting for ${this.fetching.size} fetch(es) in progress`);
      const timer = setTimeout(() => this.stopFetches.abort(), LISTEN_DRAIN_MS);
      await Promise.allSettled([...this.fetching.values(), this.catchingUp]);
      clearTimeout(timer);
    }
    await this.catchingUp;
    if (this.listener !== undefined) store.markListenerStopped(this.listener.listenUrl, pid);
    this.listener = undefined;
  }

  private onEvent(event: WebhookEvent): { duplicate: boolean } {
    const { store, log, client, now } = this.options;
    const { recorded } = store.recordWebhook(event);
    if (recorded) {
      this.options.out(`${eventLine(event, now())}\n`);
      if (client !== undefined && event.kind === 'success' && event.sessionId !== null) void this.startFetch(event.sessionId);
    } else {
      log.info(`repeated ${event.kind} callback${event.sessionId === null ? '' : ` for session ${event.sessionId}`}: already recorded`);
      // Sent again while its documents are still not saved (an earlier fetch failed): try again.
      if (client !== undefined && event.kind === 'success' && event.sessionId !== null && store.getSession(event.sessionId)?.fetchedAt === null) {
        void this.startFetch(event.sessionId);
      }
    }
    return { duplicate: !recorded };
  }

  /**
   * Sessions whose success callback is recorded but whose documents were never saved (this
   * listener was stopped or killed, or the fetch failed): fetched at start, one at a time, those
   * of the last CATCH_UP_MS only (not months of documents nobody asked this listener for).
   */
  private async catchUp(): Promise<void> {
    const { store, log, client, download, now } = this.options;
    if (client === undefined || download === undefined) return;
    const due = store.sessionsAwaitingFetch(now() - CATCH_UP_MS).filter((session) => classifyStatus(session.status) !== 'failed');
    if (due.length === 0) return;
    log.info(`fetching ${due.length} session(s) whose success callback was recorded but whose documents were not saved`);
    for (const session of due) {
      if (this.stopping) return;
      await this.startFetch(session.sessionId);
    }
  }

  /** Starts fetching a session's documents unless that is under way; resolves when it ends (never rejects). */
  private startFetch(sessionId: string): Promise<void> | undefined {
    const { log, client, download } = this.options;
    if (!isSafeSessionId(sessionId)) {
      log.warn(`success callback names a session id that is not one ("${sessionId.slice(0, 80)}"): not fetched`);
      return undefined;
    }
    if (this.stopping || client === undefined || download === undefined) return undefined;
    const running = this.fetching.get(sessionId);
    if (running !== undefined) return running;
    const task = this.fetchAndSave(client, sessionId, download)
      .catch((error: unknown) => {
        const text = isVasError(error) ? error.describe() : error instanceof Error ? error.message : String(error);
        log.error(`fetch of session ${sessionId} failed: ${text}`);
      })
      .finally(() => this.fetching.delete(sessionId));
    this.fetching.set(sessionId, task);
    return task;
  }

  private async fetchAndSave(client: Client, sessionId: string, dir: string): Promise<void> {
    const { store, log, now } = this.options;
    const signal = this.stopFetches.signal;
    const otherApi = otherApiProblem(sessionId, this.options.api ?? null, store);
    if (otherApi !== undefined) {
      log.error(otherApi);
      return;
    }
    let outcome: FetchOutcome;
    try {
      // The callback can outrun the status: wait a little for Completed.
      outcome = await fetchDocuments(client, sessionId, { wait: true, timeoutMs: LISTEN_FETCH_WAIT_MS, signal, now });
    } catch (error) {
      throw explainFetchError(error, sessionId, store);
    }
    if (outcome.kind !== 'completed') {
      const status = 'result' in outcome ? outcome.result.status : outcome.lastStatus;
      if (status !== null) store.setStatus(sessionId, status);
      log.error(`session ${sessionId}: not fetched (${outcome.kind}${status === null ? '' : `, status ${status}`})`);
      return;
    }
    const report = await saveDocuments(client, { dir, sessionId, documents: outcome.result.documents, signal });
    // Absolute: the listing is read from other directories than this one.
    store.recordFetch(sessionId, outcome.result.status, report.files.map((f) => path.resolve(f.path)), report.failures.length === 0);
    for (const failure of report.failures) log.error(`session ${sessionId} ${failure.docType} ${failure.format.toUpperCase()}: ${failure.reason}`);
    this.options.out(
      `${new Date(now()).toISOString()} fetched ${sessionId} ${outcome.result.documents.length} document(s), ${report.files.length} file(s) in ${report.directory}` +
        `${report.failures.length > 0 ? `, ${report.failures.length} failed` : ''}\n`,
    );
  }
}

/** One line per recorded callback: time, kind, session, status — no personal data. */
function eventLine(event: WebhookEvent, now: number): string {
  const line = `${new Date(now).toISOString()} ${event.kind} ${event.sessionId ?? '-'} ${event.status ?? '-'}`;
  // The payload is the sender's text: no control characters reach the terminal.
  return line.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}
