/**
 * The embedded sandbox (docs/ARCHITECTURE.md, "The sandbox"): a local HTTP server that speaks the
 * remote interface, with test accounts, injected faults, quotas and a document-locker consent flow, and that
 * counts what it did so tests can assert on requests and deposits.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  createServer,
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import {
  API_PREFIX,
  BankRequestSchema,
  dailyLimitMessage,
  DEFAULT_TOKEN_PATH,
  MESSAGES,
  OPS,
  type BankResult,
  type DocFetchResult,
  type DocInitResult,
  type DocumentInfo,
  type OpName,
} from '../api/schemas.js';
import { renderConsentPage, renderExpiredPage, renderResultPage } from './consent-page.js';
import { documentsFor, renderPdf, renderXml, type IssuedDocument } from './documents.js';
import { basicCredentials, bearerToken, formFields, parseJson, readBody } from './http-util.js';
import { ifscDetailsFor } from './ifsc.js';
import { resolveOptions, type FaultKind, type ResolvedOptions, type SandboxOptions } from './options.js';
import { createRandom, hashString, pick, type Random } from './prng.js';
import { loadRegistry, Registry, type RegistryEntry } from './registry.js';
import { buildBankResult, planBankRequest } from './scenarios.js';

/** What the sandbox counted since start or the last reset (also at GET /__sandbox/stats). */
export interface SandboxStats {
  /** Requests received per op name, plus `token` (OAuth) and `webhook` (callbacks sent). */
  requests: Record<string, number>;
  /** Responses sent per HTTP status (as a string); dropped connections are not answers. */
  responses: Record<string, number>;
  /** One-rupee deposits actually made, per account number. */
  deposits: Record<string, number>;
  /** Faults injected by faultRate. */
  faults: number;
}

/** A running sandbox. */
export interface Sandbox {
  /** `http://HOST:PORT`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  /** A copy of the counters. */
  stats(): SandboxStats;
  /** Clears counters, test-account attempt counters, daily usage and the rate window. */
  reset(): void;
  /** Stops listening, drops open connections and timers; safe to call more than once. */
  close(): Promise<void>;
}

const IST_OFFSET_MS = (5 * 60 + 30) * 60 * 1000; // Asia/Kolkata has no DST
const DAY_MS = 24 * 60 * 60 * 1000;
const WEBHOOK_TIMEOUT_MS = 5000;
const ACCOUNT_PATTERN = /^\d{9,18}$/;
const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';
const OP_BY_NAME: ReadonlyMap<string, OpName> = new Map(Object.values(OPS).map((op) => [op, op]));

/** Thrown into pending waits by close(); handlers stop quietly on it. */
class SandboxClosedError extends Error {
  constructor() {
    super('sandbox closed');
  }
}

type SessionStatus = 'Pending' | 'Completed' | 'Denied';

interface Session {
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

interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** Control routes (/__sandbox/*) are not counted, so reading stats does not change them. */
  readonly counted: boolean;
}

type Payload = { readonly json: unknown } | { readonly text: string };

const envelopeError = (status: number, message: string) => ({ ok: false, responseCode: status, message });
const errorIn200 = (message: string) => ({ errorCode: 200, errorType: 'proxy', errorMessage: message });
const QUOTA_BODY = { errorCode: 429, errorType: 'proxy', errorMessage: MESSAGES.quota } as const;
const success = <T>(body: T) => ({ ok: true, responseCode: 200, message: MESSAGES.ok, body });

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

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function emptyStats(): SandboxStats {
  return { requests: {}, responses: {}, deposits: {}, faults: 0 };
}

function bump(counter: Record<string, number>, key: string): void {
  counter[key] = (counter[key] ?? 0) + 1;
}

class SandboxServer {
  url = '';
  port = 0;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly waits = new Set<{ timer: NodeJS.Timeout; reject: (error: Error) => void }>();
  private readonly webhooks = new Set<ClientRequest>();
  private readonly sessions = new Map<string, Session>();
  private readonly sessionsByFileToken = new Map<string, Session>();
  /** Issued OAuth tokens → expiry (ms since epoch). */
  private readonly tokens = new Map<string, number>();
  // Separate streams so that turning latency on does not change which requests get faults.
  private readonly faultRandom: Random;
  private readonly latencyRandom: Random;
  private counters: SandboxStats = emptyStats();
  private attempts = new Map<string, number>();
  private daily: { day: number; used: Map<string, number> } = { day: -1, used: new Map() };
  private rateWindow: number[] = [];
  private sessionCount = 0;
  private closed = false;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly config: ResolvedOptions,
    private readonly registry: Registry,
  ) {
    this.faultRandom = createRandom(hashString(`faults:${config.seed}`));
    this.latencyRandom = createRandom(hashString(`latency:${config.seed}`));
    this.server = createServer((req, res) => {
      this.route(req, res).catch((error: unknown) => this.onHandlerError(req, res, error));
    });
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.config.port, this.config.host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const address = this.server.address() as AddressInfo;
    this.port = address.port;
    const host = this.config.host.includes(':') ? `[${this.config.host}]` : this.config.host;
    this.url = `http://${host}:${this.port}`;
  }

  snapshot(): SandboxStats {
    return {
      requests: { ...this.counters.requests },
      responses: { ...this.counters.responses },
      deposits: { ...this.counters.deposits },
      faults: this.counters.faults,
    };
  }

  reset(): void {
    this.counters = emptyStats();
    this.attempts = new Map();
    this.daily = { day: -1, used: new Map() };
    this.rateWindow = [];
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.closed = true;
    for (const wait of this.waits) {
      clearTimeout(wait.timer);
      wait.reject(new SandboxClosedError());
    }
    this.waits.clear();
    for (const session of this.sessions.values()) if (session.timer !== null) clearTimeout(session.timer);
    for (const webhook of this.webhooks) webhook.destroy();
    this.webhooks.clear();
    const stopped = new Promise<void>((resolve) => this.server.close(() => resolve()));
    // Hung and keep-alive connections would hold server.close() open forever.
    for (const socket of this.sockets) socket.destroy();
    await stopped;
  }

  // ---- routing ----

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('x-request-id', `sbx-${randomBytes(8).toString('hex')}`);
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://sandbox.invalid').pathname;
    const ex: Exchange = { req, res, counted: !path.startsWith('/__sandbox/') };

    if (path.startsWith(API_PREFIX)) {
      const op = OP_BY_NAME.get(path.slice(API_PREFIX.length));
      if (op === undefined) return this.notFound(ex);
      if (method !== 'POST') return this.methodNotAllowed(ex, 'POST');
      return this.handleApi(ex, op);
    }
    if (path === DEFAULT_TOKEN_PATH && this.config.client !== null) {
      if (method !== 'POST') return this.methodNotAllowed(ex, 'POST');
      return this.handleToken(ex);
    }
    if (path === '/__sandbox/stats') {
      if (method !== 'GET') return this.methodNotAllowed(ex, 'GET');
      return this.sendJson(ex, 200, this.snapshot());
    }
    if (path === '/__sandbox/reset') {
      if (method !== 'POST') return this.methodNotAllowed(ex, 'POST');
      this.reset();
      return this.sendJson(ex, 200, { ok: true });
    }
    const consent = /^\/consent\/([^/]+)(?:\/(approve|deny))?$/.exec(path);
    if (consent !== null) {
      const sessionId = safeDecode(consent[1] ?? '');
      const action = consent[2];
      if (action === undefined) {
        if (method !== 'GET' && method !== 'HEAD') return this.methodNotAllowed(ex, 'GET, HEAD');
        return this.showConsent(ex, sessionId);
      }
      if (method !== 'POST') return this.methodNotAllowed(ex, 'POST');
      return this.answerConsent(ex, sessionId, action === 'approve' ? 'Completed' : 'Denied');
    }
    const file = /^\/files\/([A-Za-z0-9_-]+)\/([a-z]+)\.(pdf|xml)$/.exec(path);
    if (file !== null) {
      if (method !== 'GET' && method !== 'HEAD') return this.methodNotAllowed(ex, 'GET, HEAD');
      return this.serveFile(ex, file[1] ?? '', file[2] ?? '', file[3] === 'pdf' ? 'pdf' : 'xml');
    }
    return this.notFound(ex);
  }

  private onHandlerError(req: IncomingMessage, res: ServerResponse, error: unknown): void {
    if (error instanceof SandboxClosedError || this.closed) return;
    // A bug in the sandbox must still answer, or the client under test would hang.
    this.sendJson({ req, res, counted: true }, 500, envelopeError(500, MESSAGES.internal));
  }

  // ---- sending ----

  private send(ex: Exchange, status: number, body: string | Buffer, type: string, headers: Record<string, string> = {}): void {
    const { req, res } = ex;
    if (res.headersSent || res.destroyed || req.socket.destroyed) return;
    if (ex.counted) bump(this.counters.responses, String(status));
    res.writeHead(status, { 'content-type': type, 'content-length': String(Buffer.byteLength(body)), ...headers });
    res.end(body);
  }

  private sendJson(ex: Exchange, status: number, value: unknown, headers: Record<string, string> = {}): void {
    this.send(ex, status, JSON.stringify(value), JSON_TYPE, headers);
  }

  private notFound(ex: Exchange): void {
    this.sendJson(ex, 404, envelopeError(404, 'Not Found'));
  }

  private methodNotAllowed(ex: Exchange, allow: string): void {
    this.sendJson(ex, 405, envelopeError(405, 'Method Not Allowed'), { allow });
  }

  /** Every API answer goes through here so the configured latency applies to all of them. */
  private async answerApi(ex: Exchange, status: number, payload: Payload, headers: Record<string, string> = {}): Promise<void> {
    await this.wait(this.drawLatency());
    if ('text' in payload) this.send(ex, status, payload.text, TEXT_TYPE, headers);
    else this.sendJson(ex, status, payload.json, headers);
  }

  /** Drops the connection without an answer (a reset the client cannot tell from a crash). */
  private async dropConnection(ex: Exchange): Promise<void> {
    await this.wait(this.drawLatency());
    ex.req.socket.destroy();
  }

  private wait(ms: number): Promise<void> {
    if (this.closed) return Promise.reject(new SandboxClosedError());
    if (ms <= 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const entry = {
        timer: setTimeout(() => {
          this.waits.delete(entry);
          resolve();
        }, ms),
        reject,
      };
      this.waits.add(entry);
    });
  }

  private drawLatency(): number {
    const [min, max] = this.config.latency;
    if (max === min) return min;
    return Math.round(min + this.latencyRandom() * (max - min));
  }

  // ---- API ops: count → fault → rate limit → auth → validation → scenario → latency → answer ----

  private async handleApi(ex: Exchange, op: OpName): Promise<void> {
    bump(this.counters.requests, op);
    const body = await readBody(ex.req);

    const fault = this.drawFault();
    if (fault !== null) {
      this.counters.faults += 1;
      return this.injectFault(ex, fault);
    }
    const retryAfter = this.takeRateSlot();
    if (retryAfter !== null) {
      return this.answerApi(ex, 429, { json: QUOTA_BODY }, { 'retry-after': String(retryAfter) });
    }
    if (!this.isAuthorized(ex.req)) {
      return this.answerApi(ex, 401, { json: envelopeError(401, MESSAGES.invalidCredentials) }, {
        'www-authenticate': 'Bearer error="invalid_token"',
      });
    }
    switch (op) {
      case OPS.pennyLess:
        return this.handleBank(ex, op, body, false);
      case OPS.pennyDrop:
        return this.handleBank(ex, op, body, true);
      case OPS.docInit:
        return this.handleDocInit(ex, body);
      case OPS.docFetch:
        return this.handleDocFetch(ex, body);
    }
  }

  private drawFault(): FaultKind | null {
    const { faultRate, faults } = this.config;
    if (faultRate <= 0) return null;
    if (this.faultRandom() >= faultRate) return null;
    return pick(this.faultRandom, faults);
  }

  private async injectFault(ex: Exchange, kind: FaultKind): Promise<void> {
    switch (kind) {
      case '429':
        return this.answerApi(ex, 429, { json: QUOTA_BODY }, { 'retry-after': '1' });
      case '500':
        return this.answerApi(ex, 500, { json: envelopeError(500, MESSAGES.internal) });
      case '503':
        return this.answerApi(ex, 503, { text: MESSAGES.unavailable });
      case 'reset':
        return this.dropConnection(ex);
      case 'hang':
        // Never answer: the socket stays open until the client gives up or close() runs.
        return;
    }
  }

  /** Takes a slot in the sliding window, or answers the Retry-After seconds when full. */
  private takeRateSlot(): number | null {
    const limit = this.config.rateLimit;
    if (limit === null) return null;
    // Below 1 rps the window stretches so that e.g. 0.5 means one request per two seconds.
    const windowMs = limit >= 1 ? 1000 : 1000 / limit;
    const capacity = Math.max(1, Math.floor(limit));
    const now = this.config.now();
    while (this.rateWindow.length > 0 && (this.rateWindow[0] ?? now) <= now - windowMs) this.rateWindow.shift();
    if (this.rateWindow.length >= capacity) {
      const oldest = this.rateWindow[0] ?? now;
      return Math.max(1, Math.ceil((oldest + windowMs - now) / 1000));
    }
    this.rateWindow.push(now);
    return null;
  }

  private isAuthorized(req: IncomingMessage): boolean {
    const token = bearerToken(req);
    if (token === null) return false;
    if (token === this.config.token) return true;
    const expiresAt = this.tokens.get(token);
    if (expiresAt === undefined) return false;
    if (this.config.now() < expiresAt) return true;
    this.tokens.delete(token);
    return false;
  }

  // ---- bank verification ----

  private async handleBank(ex: Exchange, op: OpName, body: string | null, isPennyDrop: boolean): Promise<void> {
    const parsed = BankRequestSchema.safeParse(parseJson(body));
    if (!parsed.success) return this.answerApi(ex, 400, { json: envelopeError(400, MESSAGES.invalidRequest) });
    const { accountNumber, ifscNumber } = parsed.data;
    if (!ACCOUNT_PATTERN.test(accountNumber)) {
      return this.answerApi(ex, 400, { json: envelopeError(400, MESSAGES.invalidAccount) });
    }
    if (ifscNumber.length !== 11) return this.answerApi(ex, 200, { json: errorIn200(MESSAGES.ifscLength) });
    const ifscDetails = ifscDetailsFor(ifscNumber);
    if (ifscDetails === null) return this.answerApi(ex, 200, { json: errorIn200(MESSAGES.invalidIfsc) });

    const attemptKey = `${op}:${accountNumber}`;
    const attempt = (this.attempts.get(attemptKey) ?? 0) + 1;
    this.attempts.set(attemptKey, attempt);
    const plan = planBankRequest(accountNumber, attempt);
    switch (plan.kind) {
      case 'fail':
        return plan.status === 503
          ? this.answerApi(ex, 503, { text: MESSAGES.unavailable })
          : this.answerApi(ex, 500, { json: envelopeError(500, MESSAGES.internal) });
      case 'error200':
        return this.answerApi(ex, 200, { json: errorIn200(plan.message) });
      case 'process':
        break;
    }
    if (!this.takeDailySlot(accountNumber)) {
      return this.answerApi(ex, 200, { json: errorIn200(dailyLimitMessage(accountNumber)) });
    }

    const entry: RegistryEntry | undefined = this.registry.find(accountNumber, ifscNumber);
    const result: BankResult = buildBankResult({ accountNumber, ifscDetails, isPennyDrop, entry, seed: this.config.seed });
    // The rupee moves as soon as the request is processed, whatever happens to the answer.
    if (isPennyDrop) bump(this.counters.deposits, accountNumber);

    await this.wait(plan.delayMs);
    if (plan.dropConnection) return this.dropConnection(ex);
    return this.answerApi(ex, 200, { json: success(result) });
  }

  /** Counts one processed request against the account's allowance for the current IST day. */
  private takeDailySlot(accountNumber: string): boolean {
    const limit = this.config.dailyLimit;
    if (limit === null) return true;
    const day = Math.floor((this.config.now() + IST_OFFSET_MS) / DAY_MS);
    if (day !== this.daily.day) this.daily = { day, used: new Map() };
    const used = this.daily.used.get(accountNumber) ?? 0;
    if (used >= limit) return false;
    this.daily.used.set(accountNumber, used + 1);
    return true;
  }

  // ---- OAuth client credentials ----

  private async handleToken(ex: Exchange): Promise<void> {
    bump(this.counters.requests, 'token');
    const body = await readBody(ex.req);
    const client = this.config.client;
    if (client === null) return this.notFound(ex);
    const fields = formFields(ex.req, body);
    const basic = basicCredentials(ex.req);
    const id = basic?.id ?? fields.get('client_id');
    const secret = basic?.secret ?? fields.get('client_secret');
    const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };
    if (id !== client.id || secret !== client.secret) {
      return this.sendJson(ex, 401, { error: 'invalid_client' }, { ...noStore, 'www-authenticate': 'Basic realm="vas-verify sandbox"' });
    }
    const grantType = fields.get('grant_type');
    if (grantType !== 'client_credentials') {
      return this.sendJson(ex, 400, { error: grantType === undefined ? 'invalid_request' : 'unsupported_grant_type' }, noStore);
    }
    const now = this.config.now();
    for (const [token, expiresAt] of this.tokens) if (expiresAt <= now) this.tokens.delete(token);
    const accessToken = `sbx_${randomBytes(24).toString('base64url')}`;
    this.tokens.set(accessToken, now + this.config.tokenTtlSeconds * 1000);
    return this.sendJson(ex, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: this.config.tokenTtlSeconds }, noStore);
  }

  // ---- document locker ----

  private async handleDocInit(ex: Exchange, body: string | null): Promise<void> {
    const request = parseJson(body);
    const invalid = () => this.answerApi(ex, 400, { json: envelopeError(400, MESSAGES.invalidRequest) });
    if (!isRecord(request) || typeof request['pinlessVerification'] !== 'boolean') return invalid();
    const webhook = (key: string): string | null | undefined => {
      const value = request[key];
      if (value === undefined || value === null) return null;
      return typeof value === 'string' && isWebUrl(value) ? value : undefined;
    };
    const successWebhookUrl = webhook('successWebhookUrl');
    const failureWebhookUrl = webhook('failureWebhookUrl');
    if (successWebhookUrl === undefined || failureWebhookUrl === undefined) return invalid();

    this.pruneSessions();
    const now = this.config.now();
    const session: Session = {
      id: randomUUID(),
      seq: (this.sessionCount += 1),
      expiresAt: now + this.config.sessionTtlSeconds * 1000,
      pinless: request['pinlessVerification'],
      successWebhookUrl,
      failureWebhookUrl,
      fileToken: randomBytes(18).toString('base64url'),
      status: 'Pending',
      documents: [],
      completedAt: null,
      timer: null,
    };
    this.sessions.set(session.id, session);
    this.sessionsByFileToken.set(session.fileToken, session);
    if (this.config.autoAuthorizeMs !== null) {
      session.timer = setTimeout(() => {
        session.timer = null;
        if (this.liveSession(session.id) !== undefined) this.decide(session, 'Completed');
      }, this.config.autoAuthorizeMs);
    }
    const result: DocInitResult = { sessionId: session.id, url: `${this.url}/consent/${session.id}` };
    return this.answerApi(ex, 200, { json: success(result) });
  }

  private async handleDocFetch(ex: Exchange, body: string | null): Promise<void> {
    const request = parseJson(body);
    if (!isRecord(request) || typeof request['sessionId'] !== 'string') {
      return this.answerApi(ex, 400, { json: envelopeError(400, MESSAGES.badBody) });
    }
    const session = this.liveSession(request['sessionId']);
    if (session === undefined) return this.answerApi(ex, 400, { json: envelopeError(400, MESSAGES.sessionExpired) });
    const result: DocFetchResult = {
      sessionId: session.id,
      status: session.status,
      documents: session.documents.map((doc) => this.documentInfo(session, doc)),
    };
    return this.answerApi(ex, 200, { json: success(result) });
  }

  private documentInfo(session: Session, doc: IssuedDocument): DocumentInfo {
    const base = `${this.url}/files/${session.fileToken}/${doc.docType}`;
    return { ...doc, pdfUrl: `${base}.pdf`, xmlUrl: `${base}.xml` };
  }

  /** The session if it exists and has not expired; expired ones are forgotten on sight. */
  private liveSession(id: string): Session | undefined {
    const session = this.sessions.get(id);
    if (session === undefined) return undefined;
    if (this.config.now() < session.expiresAt) return session;
    this.forgetSession(session);
    return undefined;
  }

  private pruneSessions(): void {
    const now = this.config.now();
    for (const session of this.sessions.values()) if (session.expiresAt <= now) this.forgetSession(session);
  }

  private forgetSession(session: Session): void {
    if (session.timer !== null) clearTimeout(session.timer);
    this.sessions.delete(session.id);
    this.sessionsByFileToken.delete(session.fileToken);
  }

  /** Approves or denies a pending session and sends the matching callback. */
  private decide(session: Session, outcome: 'Completed' | 'Denied'): void {
    if (session.status !== 'Pending' || this.closed) return;
    if (session.timer !== null) {
      clearTimeout(session.timer);
      session.timer = null;
    }
    const now = this.config.now();
    session.status = outcome;
    session.completedAt = now;
    const timestamp = new Date(now).toISOString();
    if (outcome === 'Completed') {
      session.documents = documentsFor(`session-${session.seq}`, this.config.seed);
      if (session.successWebhookUrl !== null) {
        this.sendWebhook(session.successWebhookUrl, {
          event: 'doclocker.success',
          sessionId: session.id,
          status: 'Completed',
          timestamp,
        });
      }
    } else if (session.failureWebhookUrl !== null) {
      this.sendWebhook(session.failureWebhookUrl, {
        event: 'doclocker.failure',
        sessionId: session.id,
        status: 'Denied',
        reason: 'User denied consent',
        timestamp,
      });
    }
  }

  /** Fire and forget: a callback that fails is the receiver's problem, as with the real service. */
  private sendWebhook(target: string, payload: Record<string, unknown>): void {
    bump(this.counters.requests, 'webhook');
    const body = JSON.stringify(payload);
    const url = new URL(target);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, {
      method: 'POST',
      // A fresh connection each time, so no pooled socket outlives close().
      agent: false,
      timeout: WEBHOOK_TIMEOUT_MS,
      headers: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'vas-verify-sandbox',
      },
    });
    this.webhooks.add(request);
    const done = (): void => {
      this.webhooks.delete(request);
    };
    request.on('timeout', () => request.destroy());
    request.on('error', done);
    request.on('close', done);
    request.on('response', (response) => response.resume());
    request.end(body);
  }

  private showConsent(ex: Exchange, sessionId: string): void {
    const session = this.liveSession(sessionId);
    if (session === undefined) return this.send(ex, 404, renderExpiredPage(), HTML_TYPE);
    if (session.status !== 'Pending') return this.send(ex, 200, renderResultPage(session.status, true), HTML_TYPE);
    const page = renderConsentPage({
      sessionId: session.id,
      pinlessVerification: session.pinless,
      expiresAt: new Date(session.expiresAt),
    });
    return this.send(ex, 200, page, HTML_TYPE, { 'cache-control': 'no-store' });
  }

  private async answerConsent(ex: Exchange, sessionId: string, outcome: 'Completed' | 'Denied'): Promise<void> {
    await readBody(ex.req); // the PIN, if any: every PIN is accepted in the sandbox
    const session = this.liveSession(sessionId);
    if (session === undefined) return this.send(ex, 404, renderExpiredPage(), HTML_TYPE);
    if (session.status !== 'Pending') return this.send(ex, 409, renderResultPage(session.status, true), HTML_TYPE);
    this.decide(session, outcome);
    return this.send(ex, 200, renderResultPage(outcome), HTML_TYPE);
  }

  private serveFile(ex: Exchange, fileToken: string, docType: string, format: 'pdf' | 'xml'): void {
    const session = this.sessionsByFileToken.get(fileToken);
    const live = session === undefined ? undefined : this.liveSession(session.id);
    const doc = live?.documents.find((candidate) => candidate.docType === docType);
    if (live === undefined || doc === undefined) return this.notFound(ex);
    const issuedAt = new Date(live.completedAt ?? this.config.now());
    const headers = { 'content-disposition': `inline; filename="${docType}.${format}"`, 'cache-control': 'no-store' };
    if (format === 'pdf') return this.send(ex, 200, renderPdf(doc, issuedAt), 'application/pdf', headers);
    return this.send(ex, 200, renderXml(doc, issuedAt), 'application/xml; charset=utf-8', headers);
  }
}

async function loadAccounts(accounts: SandboxOptions['accounts']): Promise<readonly RegistryEntry[]> {
  if (accounts === undefined) return [];
  if (typeof accounts !== 'string') return accounts;
  let text: string;
  try {
    text = await readFile(accounts, 'utf8');
  } catch (error) {
    throw new Error(`sandbox: cannot read accounts file ${accounts}: ${(error as Error).message}`, { cause: error });
  }
  try {
    return loadRegistry(text);
  } catch (error) {
    throw new Error(`sandbox: ${accounts}: ${(error as Error).message}`, { cause: error });
  }
}

/** Starts a sandbox; resolves once it is listening. Prints nothing. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const config = resolveOptions(options);
  const registry = new Registry(await loadAccounts(options.accounts));
  const server = new SandboxServer(config, registry);
  await server.listen();
  return {
    url: server.url,
    port: server.port,
    stats: () => server.snapshot(),
    reset: () => server.reset(),
    close: () => server.close(),
  };
}
