/**
 * The embedded sandbox (docs/ARCHITECTURE.md, "The sandbox"): a local HTTP server that speaks the
 * remote interface, with test accounts, injected faults, quotas and a document-locker consent flow, and that
 * counts what it did so tests can assert on requests and deposits. This module routes requests and
 * composes the parts; each part has its own module (see docs/ARCHITECTURE.md, "Layout").
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { InputError } from '../errors.js';
import { API_PREFIX, DEFAULT_TOKEN_PATH, MESSAGES, OPS, type OpName } from '../api/schemas.js';
import { ApiOps } from './api.js';
import { Attempts, BankHandler } from './bank.js';
import { DocLockerOps } from './doclocker-api.js';
import { ConsentFlow } from './doclocker-consent.js';
import { DocumentFiles } from './doclocker-files.js';
import { SessionStore } from './doclocker-sessions.js';
import { WebhookSender } from './doclocker-webhooks.js';
import { envelopeError, Responder, type Exchange } from './exchange.js';
import { FaultInjector } from './faults.js';
import { TokenEndpoint, TokenStore } from './oauth.js';
import { resolveOptions, type ResolvedOptions, type SandboxOptions } from './options.js';
import { DailyQuota, RateWindow } from './quotas.js';
import { loadRegistry, Registry, type RegistryEntry } from './registry.js';
import { SandboxCounters, StatsRoutes, type SandboxStats } from './stats.js';
import { Latency, SandboxClosedError, Waits } from './timing.js';

export type { SandboxStats } from './stats.js';

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

const OP_BY_NAME: ReadonlyMap<string, OpName> = new Map(Object.values(OPS).map((op) => [op, op]));

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The sandbox's state, each piece in its own small class; reset() clears those a reset covers. */
class SandboxState {
  readonly counters = new SandboxCounters();
  readonly waits = new Waits();
  readonly attempts = new Attempts();
  readonly daily: DailyQuota;
  readonly rateWindow: RateWindow;
  readonly tokens: TokenStore;
  readonly sessions: SessionStore;
  readonly webhooks = new WebhookSender(this.counters);

  constructor(config: ResolvedOptions) {
    this.daily = new DailyQuota(config.dailyLimit, config.now);
    this.rateWindow = new RateWindow(config.rateLimit, config.now);
    this.tokens = new TokenStore(config.token, config.tokenTtlSeconds, config.now);
    this.sessions = new SessionStore(config.now, config.sessionTtlSeconds);
  }

  reset(): void {
    this.counters.clear();
    this.attempts.clear();
    this.daily.clear();
    this.rateWindow.clear();
  }
}

/** The handlers, wired to the state they share. */
interface Handlers {
  readonly responder: Responder;
  readonly api: ApiOps;
  readonly token: TokenEndpoint;
  readonly control: StatsRoutes;
  readonly consent: ConsentFlow;
  readonly files: DocumentFiles;
}

function composeHandlers(config: ResolvedOptions, registry: Registry, state: SandboxState, baseUrl: () => string): Handlers {
  const { counters, waits, sessions, webhooks } = state;
  const responder = new Responder(counters, waits, new Latency(config.latency, config.seed));
  const { seed, autoAuthorizeMs, now } = config;
  const consent = new ConsentFlow({ seed, autoAuthorizeMs, now, sessions, webhooks, responder, waits });
  const files = new DocumentFiles(sessions, responder, now, baseUrl);
  const api = new ApiOps({
    counters,
    faults: new FaultInjector(config.faultRate, config.faults, seed, responder),
    rateWindow: state.rateWindow,
    tokens: state.tokens,
    responder,
    bank: new BankHandler({ seed, registry, payeeNames: config.payeeNames, now, attempts: state.attempts, daily: state.daily, counters, responder, waits }),
    docLocker: new DocLockerOps({ sessions, consent, files, responder, baseUrl }),
    now,
  });
  const token = new TokenEndpoint(config, state.tokens, counters, responder);
  const control = new StatsRoutes(counters, responder, () => state.reset());
  return { responder, api, token, control, consent, files };
}

class SandboxServer {
  url = '';
  port = 0;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly state: SandboxState;
  private readonly handlers: Handlers;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly config: ResolvedOptions,
    registry: Registry,
  ) {
    this.state = new SandboxState(config);
    this.handlers = composeHandlers(config, registry, this.state, () => this.url);
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
    return this.state.counters.snapshot();
  }

  reset(): void {
    this.state.reset();
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.state.waits.close();
    this.state.sessions.clearTimers();
    this.state.webhooks.destroyAll();
    const stopped = new Promise<void>((resolve) => this.server.close(() => resolve()));
    // Hung and keep-alive connections would hold server.close() open forever.
    for (const socket of this.sockets) socket.destroy();
    await stopped;
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('x-request-id', `sbx-${randomBytes(8).toString('hex')}`);
    // Its Date is its own clock's, as a real server's is (Node writes the machine's otherwise).
    if (this.config.now !== Date.now) res.setHeader('date', new Date(this.config.now()).toUTCString());
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://sandbox.invalid').pathname;
    const ex: Exchange = { req, res, counted: !path.startsWith('/__sandbox/') };
    const { responder, api, token, control } = this.handlers;

    if (path.startsWith(API_PREFIX)) {
      const op = OP_BY_NAME.get(path.slice(API_PREFIX.length));
      if (op === undefined) return responder.notFound(ex);
      if (method !== 'POST') return responder.methodNotAllowed(ex, 'POST');
      return api.handle(ex, op);
    }
    if (path === DEFAULT_TOKEN_PATH && this.config.client !== null) {
      if (method !== 'POST') return responder.methodNotAllowed(ex, 'POST');
      return token.handle(ex);
    }
    if (path === '/__sandbox/stats') {
      if (method !== 'GET') return responder.methodNotAllowed(ex, 'GET');
      return control.stats(ex);
    }
    if (path === '/__sandbox/reset') {
      if (method !== 'POST') return responder.methodNotAllowed(ex, 'POST');
      return control.resetAll(ex);
    }
    return this.routeDocLockerPages(ex, method, path);
  }

  /** The consent page and its forms, and the document files. */
  private async routeDocLockerPages(ex: Exchange, method: string, path: string): Promise<void> {
    const { responder, consent, files } = this.handlers;
    const consentPath = /^\/consent\/([^/]+)(?:\/(approve|deny))?$/.exec(path);
    if (consentPath !== null) {
      const sessionId = safeDecode(consentPath[1] ?? '');
      const action = consentPath[2];
      if (action === undefined) {
        if (method !== 'GET' && method !== 'HEAD') return responder.methodNotAllowed(ex, 'GET, HEAD');
        return consent.show(ex, sessionId);
      }
      if (method !== 'POST') return responder.methodNotAllowed(ex, 'POST');
      return consent.answer(ex, sessionId, action === 'approve' ? 'Completed' : 'Denied');
    }
    const file = /^\/files\/([A-Za-z0-9_-]+)\/([a-z]+)\.(pdf|xml)$/.exec(path);
    if (file !== null) {
      if (method !== 'GET' && method !== 'HEAD') return responder.methodNotAllowed(ex, 'GET, HEAD');
      return files.serve(ex, file[1] ?? '', file[2] ?? '', file[3] === 'pdf' ? 'pdf' : 'xml');
    }
    return responder.notFound(ex);
  }

  private onHandlerError(req: IncomingMessage, res: ServerResponse, error: unknown): void {
    if (error instanceof SandboxClosedError || this.state.waits.closed) return;
    // A bug in the sandbox must still answer, or the client under test would hang.
    this.handlers.responder.sendJson({ req, res, counted: true }, 500, envelopeError(500, MESSAGES.internal));
  }
}

async function loadAccounts(accounts: SandboxOptions['accounts']): Promise<readonly RegistryEntry[]> {
  if (accounts === undefined) return [];
  if (typeof accounts !== 'string') return accounts;
  let text: string;
  try {
    text = await readFile(accounts, 'utf8');
  } catch (error) {
    throw new InputError(`sandbox: cannot read accounts file ${accounts}: ${(error as Error).message}`, { cause: error });
  }
  try {
    return loadRegistry(text);
  } catch (error) {
    throw new InputError(`sandbox: ${accounts}: ${(error as Error).message}`, { cause: error });
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
