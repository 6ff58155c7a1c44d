/** Document-locker sessions: created by doclocker-init, found by id or by their file token, forgotten once expired. */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IssuedDocument } from './documents.js';

export type SessionStatus = 'Pending' | 'Completed' | 'Denied';

export interface Session {
  readonly id: string;
  /** Creation order; seeds the generated documents so runs are reproducible. */
  readonly seq: number;
  readonly expiresAt: number;
  readonly pinless: boolean;
  readonly successWebhookUrl: string | null;
  readonly failureWebhookUrl: string | null;
  /** Unguessable path segment of the file URLs (no auth on files, like signed URLs). */
  readonly fileToken: string;
  status: SessionStatus;
  documents: IssuedDocument[];
  completedAt: number | null;
  timer: NodeJS.Timeout | null;
}

export interface NewSession {
  readonly pinless: boolean;
  readonly successWebhookUrl: string | null;
  readonly failureWebhookUrl: string | null;
}

export class SessionStore {
  private readonly byId = new Map<string, Session>();
  private readonly byFileToken = new Map<string, Session>();
  private count = 0;

  constructor(
    private readonly now: () => number,
    private readonly ttlSeconds: number,
  ) {}

  /** Forgets expired sessions, then opens a new Pending one. */
  create(fields: NewSession): Session {
    this.prune();
    const now = this.now();
    const session: Session = {
      id: randomUUID(),
      seq: (this.count += 1),
      expiresAt: now + this.ttlSeconds * 1000,
      pinless: fields.pinless,
      successWebhookUrl: fields.successWebhookUrl,
      failureWebhookUrl: fields.failureWebhookUrl,
      fileToken: randomBytes(18).toString('base64url'),
      status: 'Pending',
      documents: [],
      completedAt: null,
      timer: null,
    };
    this.byId.set(session.id, session);
    this.byFileToken.set(session.fileToken, session);
    return session;
  }

  /** The session if it exists and has not expired; expired ones are forgotten on sight. */
  live(id: string): Session | undefined {
    const session = this.byId.get(id);
    if (session === undefined) return undefined;
    if (this.now() < session.expiresAt) return session;
    this.forget(session);
    return undefined;
  }

  /** The live session whose files use this token. */
  liveByFileToken(fileToken: string): Session | undefined {
    const session = this.byFileToken.get(fileToken);
    return session === undefined ? undefined : this.live(session.id);
  }

  /** Stops every auto-approval timer (on close). */
  clearTimers(): void {
    for (const session of this.byId.values()) if (session.timer !== null) clearTimeout(session.timer);
  }

  private prune(): void {
    const now = this.now();
    for (const session of this.byId.values()) if (session.expiresAt <= now) this.forget(session);
  }

  private forget(session: Session): void {
    if (session.timer !== null) clearTimeout(session.timer);
    this.byId.delete(session.id);
    this.byFileToken.delete(session.fileToken);
  }
}
