/**
 * Document-locker state: sessions started or fetched, callbacks received, and the running
 * webhook listeners. Short autocommit statements only, so `docs listen`, `docs init` and
 * `docs fetch` can share one state file at the same time (WAL, busy timeout).
 */
import type { Db } from './types.js';

export interface DocSessionRecord {
  sessionId: string;
  /** The consent URL; empty when the session was not started from this state file. */
  url: string;
  /** null when unknown (a session fetched here but started elsewhere). */
  pinless: boolean | null;
  status: string;
  createdAt: number;
  updatedAt: number;
  fetchedAt: number | null;
  /** Paths of the files saved for it. */
  files: string[];
  /** The API it was started with (apiKey), or null: the embedded sandbox, or not known here. */
  api: string | null;
}

export interface WebhookEventRecord {
  id: number;
  receivedAt: number;
  kind: string;
  sessionId: string | null;
  digest: string;
  payload: string;
}

export interface ListenerRecord {
  listenUrl: string;
  publicUrl: string;
  secret: string;
  successUrl: string;
  failureUrl: string;
  pid: number;
  startedAt: number;
  stoppedAt: number | null;
}

interface SessionRow {
  sessionId: string;
  url: string;
  pinless: number;
  status: string;
  createdAt: number;
  updatedAt: number;
  fetchedAt: number | null;
  files: string | null;
  api: string | null;
}

const SESSION_COLUMNS = `session_id AS sessionId, url, pinless, status, created_at AS createdAt,
  updated_at AS updatedAt, fetched_at AS fetchedAt, files, api`;
const LISTENER_COLUMNS = `listen_url AS listenUrl, public_url AS publicUrl, secret, success_url AS successUrl,
  failure_url AS failureUrl, pid, started_at AS startedAt, stopped_at AS stoppedAt`;
/** `pinless` is NOT NULL in migration 1; -1 stands for "not known here". */
const PINLESS_UNKNOWN = -1;

function toSession(row: SessionRow): DocSessionRecord {
  let files: string[] = [];
  if (row.files) {
    try {
      const parsed = JSON.parse(row.files) as unknown;
      if (Array.isArray(parsed)) files = parsed.filter((f): f is string => typeof f === 'string');
    } catch {
      files = [];
    }
  }
  return {
    sessionId: row.sessionId,
    url: row.url,
    pinless: row.pinless === PINLESS_UNKNOWN ? null : row.pinless === 1,
    status: row.status,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    fetchedAt: row.fetchedAt,
    files,
    api: row.api,
  };
}

export class DocsStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a session just started by `docs init`. */
  addSession(input: { sessionId: string; url: string; pinless: boolean; status: string; api: string | null }): void {
    const t = this.now();
    this.db
      .prepare(
        `INSERT INTO doc_sessions (session_id, url, pinless, status, created_at, updated_at, api)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (session_id) DO UPDATE SET url = excluded.url, pinless = excluded.pinless, updated_at = excluded.updated_at, api = excluded.api`,
      )
      .run(input.sessionId, input.url, input.pinless ? 1 : 0, input.status, t, t, input.api);
  }

  /** Sets the status a fetch or a callback reported; creates the record if this file never saw it. */
  setStatus(sessionId: string, status: string): void {
    const t = this.now();
    this.db
      .prepare(
        `INSERT INTO doc_sessions (session_id, url, pinless, status, created_at, updated_at)
         VALUES (?, '', ${PINLESS_UNKNOWN}, ?, ?, ?)
         ON CONFLICT (session_id) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at`,
      )
      .run(sessionId, status, t, t);
  }

  /**
   * Records a fetch: status, the files saved (added to earlier ones), and, when every document was
   * saved (`complete`), when: a session with a document not saved stays due, fetched again by the
   * next listener or a repeated callback.
   */
  recordFetch(sessionId: string, status: string, savedFiles: readonly string[], complete = true): void {
    const t = this.now();
    this.db.transaction(() => {
      this.setStatus(sessionId, status);
      const previous = this.getSession(sessionId)?.files ?? [];
      const files = [...previous, ...savedFiles.filter((f) => !previous.includes(f))];
      this.db
        .prepare('UPDATE doc_sessions SET fetched_at = CASE WHEN ? THEN ? ELSE fetched_at END, files = ?, updated_at = ? WHERE session_id = ?')
        .run(complete ? 1 : 0, t, JSON.stringify(files), t, sessionId);
    })();
  }

  getSession(sessionId: string): DocSessionRecord | undefined {
    const row = this.db.prepare(`SELECT ${SESSION_COLUMNS} FROM doc_sessions WHERE session_id = ?`).get(sessionId) as SessionRow | undefined;
    return row === undefined ? undefined : toSession(row);
  }

  /** Most recent first. */
  listSessions(limit: number): DocSessionRecord[] {
    const rows = this.db
      .prepare(`SELECT ${SESSION_COLUMNS} FROM doc_sessions ORDER BY created_at DESC, rowid DESC LIMIT ?`)
      .all(limit) as SessionRow[];
    return rows.map(toSession);
  }

  /**
   * Sessions with a success callback received since `since` and after their last fetch, or never
   * fetched: a listener stopped, killed or failed before it saved their documents. Oldest first.
   */
  sessionsAwaitingFetch(since: number): DocSessionRecord[] {
    const rows = this.db
      .prepare(
        `SELECT ${SESSION_COLUMNS} FROM doc_sessions s WHERE EXISTS (
           SELECT 1 FROM webhook_events w
           WHERE w.session_id = s.session_id AND w.kind = 'success' AND w.received_at >= ?
             AND (s.fetched_at IS NULL OR w.received_at > s.fetched_at))
         ORDER BY s.updated_at, s.rowid`,
      )
      .all(since) as SessionRow[];
    return rows.map(toSession);
  }

  /**
   * Records a callback once: a repeated delivery (same kind and body) is ignored and
   * `recorded` is false. A new one also moves the session's status when it names one.
   */
  recordWebhook(event: { kind: string; sessionId: string | null; status: string | null; digest: string; payload: string }): { recorded: boolean; id: number | null } {
    const t = this.now();
    return this.db.transaction(() => {
      const info = this.db
        .prepare('INSERT OR IGNORE INTO webhook_events (received_at, kind, session_id, digest, payload) VALUES (?, ?, ?, ?, ?)')
        .run(t, event.kind, event.sessionId, event.digest, event.payload);
      if (info.changes === 0) return { recorded: false, id: null };
      if (event.sessionId !== null) {
        const status = event.status ?? (event.kind === 'success' ? 'Completed' : 'Failed');
        this.setStatus(event.sessionId, status);
      }
      return { recorded: true, id: Number(info.lastInsertRowid) };
    })();
  }

  webhookEvents(sessionId?: string): WebhookEventRecord[] {
    const columns = 'id, received_at AS receivedAt, kind, session_id AS sessionId, digest, payload';
    return (
      sessionId === undefined
        ? this.db.prepare(`SELECT ${columns} FROM webhook_events ORDER BY id`).all()
        : this.db.prepare(`SELECT ${columns} FROM webhook_events WHERE session_id = ? ORDER BY id`).all(sessionId)
    ) as WebhookEventRecord[];
  }

  /** Kind of the latest callback per session, for the listing. */
  lastCallbackKinds(sessionIds: readonly string[]): Map<string, string> {
    const out = new Map<string, string>();
    const query = this.db.prepare('SELECT kind FROM webhook_events WHERE session_id = ? ORDER BY id DESC LIMIT 1');
    for (const id of sessionIds) {
      const row = query.get(id) as { kind: string } | undefined;
      if (row !== undefined) out.set(id, row.kind);
    }
    return out;
  }

  /** The listener bound to this address before, if any (its secret is reused). */
  getListener(listenUrl: string): ListenerRecord | undefined {
    return this.db.prepare(`SELECT ${LISTENER_COLUMNS} FROM doc_listeners WHERE listen_url = ?`).get(listenUrl) as ListenerRecord | undefined;
  }

  /** The listener known by its bound or its public base URL; the latest started wins. */
  findListener(baseUrl: string): ListenerRecord | undefined {
    return this.db
      .prepare(`SELECT ${LISTENER_COLUMNS} FROM doc_listeners WHERE listen_url = ? OR public_url = ? ORDER BY started_at DESC LIMIT 1`)
      .get(baseUrl, baseUrl) as ListenerRecord | undefined;
  }

  saveListener(record: Omit<ListenerRecord, 'startedAt' | 'stoppedAt'>): void {
    this.db
      .prepare(
        `INSERT INTO doc_listeners (listen_url, public_url, secret, success_url, failure_url, pid, started_at, stopped_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, NULL)
         ON CONFLICT (listen_url) DO UPDATE SET public_url = excluded.public_url, secret = excluded.secret,
           success_url = excluded.success_url, failure_url = excluded.failure_url, pid = excluded.pid,
           started_at = excluded.started_at, stopped_at = NULL`,
      )
      .run(record.listenUrl, record.publicUrl, record.secret, record.successUrl, record.failureUrl, record.pid, this.now());
  }

  markListenerStopped(listenUrl: string, pid: number): void {
    this.db.prepare('UPDATE doc_listeners SET stopped_at = ? WHERE listen_url = ? AND pid = ?').run(this.now(), listenUrl, pid);
  }
}
