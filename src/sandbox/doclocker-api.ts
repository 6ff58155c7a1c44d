/** The document-locker operations, doclocker-init and doclocker-fetch-status, after the API pipeline's checks. */
import { MESSAGES, type DocFetchResult, type DocInitResult } from '../api/schemas.js';
import type { ConsentFlow } from './doclocker-consent.js';
import type { DocumentFiles } from './doclocker-files.js';
import type { SessionStore } from './doclocker-sessions.js';
import { envelopeError, success, type Exchange, type Responder } from './exchange.js';
import { parseJson } from './http-util.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export interface DocLockerDeps {
  readonly sessions: SessionStore;
  readonly consent: ConsentFlow;
  readonly files: DocumentFiles;
  readonly responder: Responder;
  /** The sandbox's `http://HOST:PORT`, known once it listens. */
  readonly baseUrl: () => string;
}

export class DocLockerOps {
  constructor(private readonly deps: DocLockerDeps) {}

  async init(ex: Exchange, body: string | null): Promise<void> {
    const { responder } = this.deps;
    const request = parseJson(body);
    const invalid = () => responder.answerApi(ex, 400, { json: envelopeError(400, MESSAGES.invalidRequest) });
    if (!isRecord(request) || typeof request['pinlessVerification'] !== 'boolean') return invalid();
    const webhook = (key: string): string | null | undefined => {
      const value = request[key];
      if (value === undefined || value === null) return null;
      return typeof value === 'string' && isWebUrl(value) ? value : undefined;
    };
    const successWebhookUrl = webhook('successWebhookUrl');
    const failureWebhookUrl = webhook('failureWebhookUrl');
    if (successWebhookUrl === undefined || failureWebhookUrl === undefined) return invalid();

    const session = this.deps.sessions.create({
      pinless: request['pinlessVerification'],
      successWebhookUrl,
      failureWebhookUrl,
    });
    this.deps.consent.scheduleAutoAuthorize(session);
    const result: DocInitResult = { sessionId: session.id, url: `${this.deps.baseUrl()}/consent/${session.id}` };
    return responder.answerApi(ex, 200, { json: success(result) });
  }

  async fetchStatus(ex: Exchange, body: string | null): Promise<void> {
    const { responder } = this.deps;
    const request = parseJson(body);
    if (!isRecord(request) || typeof request['sessionId'] !== 'string') {
      return responder.answerApi(ex, 400, { json: envelopeError(400, MESSAGES.badBody) });
    }
    const session = this.deps.sessions.live(request['sessionId']);
    if (session === undefined) return responder.answerApi(ex, 400, { json: envelopeError(400, MESSAGES.sessionExpired) });
    const result: DocFetchResult = {
      sessionId: session.id,
      status: session.status,
      documents: session.documents.map((doc) => this.deps.files.info(session, doc)),
    };
    return responder.answerApi(ex, 200, { json: success(result) });
  }
}
