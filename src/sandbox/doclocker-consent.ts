/**
 * The document-locker consent flow: the page at /consent/:id, its approve and deny forms, the
 * optional auto-approval, and the decision that issues documents and sends the callback.
 */
import { renderConsentPage, renderExpiredPage, renderResultPage } from './consent-page.js';
import { documentsFor } from './documents.js';
import type { Session, SessionStore } from './doclocker-sessions.js';
import type { WebhookSender } from './doclocker-webhooks.js';
import { HTML_TYPE, type Exchange, type Responder } from './exchange.js';
import { readBody } from './http-util.js';
import type { Waits } from './timing.js';

export type Outcome = 'Completed' | 'Denied';

export interface ConsentDeps {
  readonly seed: number;
  readonly autoAuthorizeMs: number | null;
  readonly now: () => number;
  readonly sessions: SessionStore;
  readonly webhooks: WebhookSender;
  readonly responder: Responder;
  /** Only for `closed`: nothing is decided after close(). */
  readonly waits: Waits;
}

export class ConsentFlow {
  constructor(private readonly deps: ConsentDeps) {}

  /** With autoAuthorizeMs set, the session approves itself after that delay if still live. */
  scheduleAutoAuthorize(session: Session): void {
    if (this.deps.autoAuthorizeMs === null) return;
    session.timer = setTimeout(() => {
      session.timer = null;
      if (this.deps.sessions.live(session.id) !== undefined) this.decide(session, 'Completed');
    }, this.deps.autoAuthorizeMs);
  }

  /** GET /consent/:id */
  show(ex: Exchange, sessionId: string): void {
    const { responder } = this.deps;
    const session = this.deps.sessions.live(sessionId);
    if (session === undefined) return responder.send(ex, 404, renderExpiredPage(), HTML_TYPE);
    if (session.status !== 'Pending') return responder.send(ex, 200, renderResultPage(session.status, true), HTML_TYPE);
    const page = renderConsentPage({
      sessionId: session.id,
      pinlessVerification: session.pinless,
      expiresAt: new Date(session.expiresAt),
    });
    return responder.send(ex, 200, page, HTML_TYPE, { 'cache-control': 'no-store' });
  }

  /** POST /consent/:id/approve and /deny */
  async answer(ex: Exchange, sessionId: string, outcome: Outcome): Promise<void> {
    const { responder } = this.deps;
    await readBody(ex.req); // the PIN, if any: every PIN is accepted in the sandbox
    const session = this.deps.sessions.live(sessionId);
    if (session === undefined) return responder.send(ex, 404, renderExpiredPage(), HTML_TYPE);
    if (session.status !== 'Pending') return responder.send(ex, 409, renderResultPage(session.status, true), HTML_TYPE);
    this.decide(session, outcome);
    return responder.send(ex, 200, renderResultPage(outcome), HTML_TYPE);
  }

  /** Approves or denies a pending session and sends the matching callback. */
  private decide(session: Session, outcome: Outcome): void {
    if (session.status !== 'Pending' || this.deps.waits.closed) return;
    if (session.timer !== null) {
      clearTimeout(session.timer);
      session.timer = null;
    }
    const now = this.deps.now();
    session.status = outcome;
    session.completedAt = now;
    const timestamp = new Date(now).toISOString();
    if (outcome === 'Completed') {
      session.documents = documentsFor(`session-${session.seq}`, this.deps.seed);
      if (session.successWebhookUrl !== null) {
        this.deps.webhooks.send(session.successWebhookUrl, {
          event: 'doclocker.success',
          sessionId: session.id,
          status: 'Completed',
          timestamp,
        });
      }
    } else if (session.failureWebhookUrl !== null) {
      this.deps.webhooks.send(session.failureWebhookUrl, {
        event: 'doclocker.failure',
        sessionId: session.id,
        status: 'Denied',
        reason: 'User denied consent',
        timestamp,
      });
    }
  }
}
