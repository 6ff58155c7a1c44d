/**
 * The HTTP side of `docs listen`: a small receiver for the success and failure callbacks on two
 * secret paths. It reads at most MAX_WEBHOOK_BODY_BYTES, answers 404 to every other path, and
 * hands each well-formed callback to `onEvent`, which records it (a repeat is acknowledged but
 * reported as a duplicate). It does no other work while answering, so the sender never waits.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decideHead, MAX_WEBHOOK_BODY_BYTES, parseWebhookBody, webhookPaths, type WebhookEvent, type WebhookKind, type WebhookPaths } from './webhook.js';

/** Bytes of a rejected body we still read (so the sender sees our answer), before hanging up. */
const DRAIN_LIMIT_BYTES = 1024 * 1024;

export interface WebhookListenerOptions {
  /** Address to bind; default 127.0.0.1. */
  host?: string | undefined;
  /** Port; default 0 (a free one). */
  port?: number | undefined;
  /** Secret path segment; default 24 random bytes, base64url. */
  secret?: string | undefined;
  /** Base URL the API should call, when it differs from http://HOST:PORT (a proxy, a tunnel). */
  publicUrl?: string | undefined;
  /** Records one callback; returns whether it was new. A throw answers 500 (the sender may retry). */
  onEvent: (event: WebhookEvent) => { duplicate: boolean };
}

export interface WebhookListener {
  /** http://HOST:PORT actually bound. */
  readonly listenUrl: string;
  readonly publicUrl: string;
  readonly secret: string;
  readonly successUrl: string;
  readonly failureUrl: string;
  close(): Promise<void>;
}

export function newWebhookSecret(): string {
  return randomBytes(24).toString('base64url');
}

/** Constant-time comparison, so the secret path cannot be guessed byte by byte from timings. */
function samePath(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

export async function startWebhookListener(options: WebhookListenerOptions): Promise<WebhookListener> {
  const host = options.host ?? '127.0.0.1';
  const secret = options.secret ?? newWebhookSecret();
  if (!/^[A-Za-z0-9_-]{16,}$/.test(secret)) throw new Error('webhook secret must be at least 16 URL-safe characters');
  const paths = webhookPaths(secret);
  // Behind --public-url https://host/prefix a proxy may pass the prefix on or strip it: both arrive.
  const prefix = options.publicUrl === undefined ? '' : new URL(options.publicUrl).pathname.replace(/\/+$/, '');

  const server = createServer((req, res) => handle(req, res, paths, prefix, options));
  // Bounded time for a sender to deliver its headers and body (slow senders hold sockets).
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const listenUrl = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  const publicUrl = (options.publicUrl ?? listenUrl).replace(/\/+$/, '');

  let closing: Promise<void> | undefined;
  return {
    listenUrl,
    publicUrl,
    secret,
    successUrl: `${publicUrl}${paths.success}`,
    failureUrl: `${publicUrl}${paths.failure}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** One request: refused from its head alone (path, method, type, declared size), or its body read. */
function handle(req: IncomingMessage, res: ServerResponse, paths: WebhookPaths, prefix: string, options: WebhookListenerOptions): void {
  req.on('error', () => req.socket.destroy());
  const fullPath = (req.url ?? '/').split('?')[0] ?? '/';
  const rawPath = prefix !== '' && fullPath.startsWith(`${prefix}/hooks/`) ? fullPath.slice(prefix.length) : fullPath;
  const declared = req.headers['content-length'];
  const decision = decideHead(
    {
      method: req.method ?? 'GET',
      path: rawPath,
      contentType: req.headers['content-type'],
      contentLength: declared === undefined ? undefined : Number(declared),
    },
    paths,
    samePath,
  );
  if (decision.action === 'reject') {
    reject(req, res, decision.status, decision.message, decision.allow === undefined ? {} : { allow: decision.allow });
    return;
  }
  receive(req, res, decision.kind, options);
}

/** Reads a callback's body (at most MAX_WEBHOOK_BODY_BYTES), then parses and records it. */
function receive(req: IncomingMessage, res: ServerResponse, kind: WebhookKind, options: WebhookListenerOptions): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  req.on('data', (chunk: Buffer) => {
    if (tooLarge) {
      size += chunk.length;
      if (size > MAX_WEBHOOK_BODY_BYTES + DRAIN_LIMIT_BYTES) req.socket.destroy();
      return;
    }
    size += chunk.length;
    if (size > MAX_WEBHOOK_BODY_BYTES) {
      // Chunked bodies declare no length: stop storing and answer as soon as we know.
      tooLarge = true;
      chunks.length = 0;
      answer(res, 413, { ok: false, error: `body larger than ${MAX_WEBHOOK_BODY_BYTES} bytes` }, { connection: 'close' });
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (tooLarge) return;
    const parsed = parseWebhookBody(kind, Buffer.concat(chunks));
    if (!parsed.ok) {
      answer(res, parsed.status, { ok: false, error: parsed.message });
      return;
    }
    let duplicate: boolean;
    try {
      ({ duplicate } = options.onEvent(parsed.event));
    } catch {
      answer(res, 500, { ok: false, error: 'could not record the event; please retry' });
      return;
    }
    answer(res, 200, { ok: true, duplicate });
  });
}

function answer(res: ServerResponse, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/** Answers now and reads (then discards) what is left of the body, up to a limit. */
function reject(req: IncomingMessage, res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  answer(res, status, { ok: false, error: message }, { connection: 'close', ...headers });
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) req.socket.destroy();
  });
  req.resume();
}
