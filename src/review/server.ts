/**
 * The review page's server (docs/ARCHITECTURE.md, "Decisions"; `vas-verify review`): 127.0.0.1
 * only, opened by a URL with a one-time random token. The first visit trades the token for an
 * HttpOnly, SameSite=Strict cookie and is sent on to a URL without it; the token is then spent.
 * Every other request needs the cookie (403 without), and the Host must be the one printed (a
 * DNS-rebound name is refused). POSTs also need the page's CSRF value in a header, a JSON body
 * and the page's own Origin. Every answer forbids framing and carries a CSP that allows only the
 * page's own nonce'd style and script and requests to itself.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stripControl } from '../terminal.js';
import { REVIEWED_DECISIONS, type ReviewFilter, type ReviewedDecision } from '../state/review-reader.js';
import { renderReviewPage } from './page.js';
import { MAX_NOTE_CHARS, MAX_ROWS_PER_DECISION, type DecideRow, type ReviewSession, type RowAnswer, type Verdict } from './session.js';

/** Largest POST body read. */
const MAX_BODY_BYTES = 256 * 1024;

export interface ReviewServerOptions {
  session: ReviewSession;
  runId: number;
  inputName: string;
  /** Port on 127.0.0.1; default 0 (a free one). */
  port?: number | undefined;
  /** Told of each recorded decision (for the terminal). */
  onDecision?: ((verdict: Verdict, answers: readonly RowAnswer[]) => void) | undefined;
}

export interface ReviewServer {
  /** The URL to open, with its one-time token. */
  readonly url: string;
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  /** Resolves when the reviewer clicks Done. */
  readonly done: Promise<void>;
  close(): Promise<void>;
}

/** The secrets of one server: the URL's token (spent on first use), the cookie's session, the page's CSRF value. */
interface Secrets {
  token: string;
  tokenSpent: boolean;
  session: string;
  csrf: string;
  cookie: string;
}

const secret = () => randomBytes(32).toString('base64url');

/** Constant-time comparison of two secrets of any length. */
function sameSecret(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

export async function startReviewServer(options: ReviewServerOptions): Promise<ReviewServer> {
  const secrets: Secrets = { token: secret(), tokenSpent: false, session: secret(), csrf: secret(), cookie: '' };
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  let origin = '';
  const server = createServer((req, res) => {
    req.on('error', () => req.socket.destroy());
    try {
      route(req, res, { ...options, secrets, origin, finish });
    } catch (error) {
      send(res, 500, 'text/plain', `internal error: ${(error as Error).message}`);
    }
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  // Cookies are shared by every port of a host: one name per server, so two reviewers' pages in one browser keep theirs.
  secrets.cookie = `vas_review_${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/?token=${secrets.token}`,
    origin,
    done,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // A browser may hold a connection open: cut what is still open after a moment.
        setTimeout(() => server.closeAllConnections(), 1_000).unref();
      });
      return closing;
    },
  };
}

interface RouteContext extends ReviewServerOptions {
  secrets: Secrets;
  origin: string;
  finish: () => void;
}

function route(req: IncomingMessage, res: ServerResponse, ctx: RouteContext): void {
  const url = new URL(req.url ?? '/', ctx.origin);
  if (req.headers.host !== ctx.origin.slice('http://'.length)) return refuse(res, 'this page answers only at the address vas-verify review printed');
  const signedIn = sameSecret(cookieOf(req, ctx.secrets.cookie), ctx.secrets.session);
  if (req.method === 'GET' && url.pathname === '/' && url.searchParams.has('token')) return signIn(res, url, ctx.secrets, signedIn);
  if (!signedIn) return refuse(res, 'open the URL vas-verify review printed (it carries the token)');
  if (req.method === 'GET' && url.pathname === '/') return page(res, url, ctx);
  if (req.method === 'POST' && (url.pathname === '/api/decide' || url.pathname === '/api/done')) {
    // A failure to record (the state busy past its timeout, the disk full) is told to the page: nothing was kept.
    post(req, res, url.pathname, ctx).catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { error: `not recorded: ${(error as Error).message}` });
    });
    return;
  }
  if (req.method !== 'GET' && req.method !== 'POST') return send(res, 405, 'text/plain', 'method not allowed');
  send(res, 404, 'text/plain', 'not found');
}

/** The URL's token, once: a cookie for the session, and on to the URL without the token. */
function signIn(res: ServerResponse, url: URL, secrets: Secrets, signedIn: boolean): void {
  const fresh = !secrets.tokenSpent && sameSecret(url.searchParams.get('token') ?? undefined, secrets.token);
  if (!fresh && !signedIn) {
    return refuse(res, secrets.tokenSpent ? 'this link was already used (it opens the page once): run vas-verify review again for a new one' : 'this is not the token vas-verify review printed');
  }
  if (fresh) {
    secrets.tokenSpent = true;
    res.setHeader('set-cookie', `${secrets.cookie}=${secrets.session}; HttpOnly; SameSite=Strict; Path=/`);
  }
  res.setHeader('location', '/');
  send(res, 303, 'text/plain', 'see /');
}

function page(res: ServerResponse, url: URL, ctx: RouteContext): void {
  const q = url.searchParams;
  const decision = REVIEWED_DECISIONS.find((d) => d === q.get('decision'));
  const reason = q.get('reason') || undefined;
  const filter: ReviewFilter = { decision, reason };
  const before = wholeNumber(q.get('before'));
  const at = before !== undefined ? { before } : { after: wholeNumber(q.get('after')) ?? 0 };
  const rows = ctx.session.page(filter, at);
  const first = rows[0]?.row;
  const last = rows[rows.length - 1]?.row;
  const more = (where: { after: number } | { before: number }) => ctx.session.reader.page(ctx.runId, filter, 1, where).length > 0;
  const link = (where: Record<string, number>) => `/?${new URLSearchParams({ ...(decision ? { decision } : {}), ...(reason ? { reason } : {}), ...Object.fromEntries(Object.entries(where).map(([k, v]) => [k, String(v)])) })}`;
  const nonce = randomBytes(16).toString('base64');
  const html = renderReviewPage({
    runId: ctx.runId,
    inputName: ctx.inputName,
    reviewer: ctx.session.reviewer,
    approvals: ctx.session.policy.approvals,
    counts: ctx.session.reader.counts(ctx.runId),
    filter: { decision: decision as ReviewedDecision | undefined, reason },
    rows,
    previous: first !== undefined && more({ before: first }) ? link({ before: first }) : null,
    next: last !== undefined && more({ after: last }) ? link({ after: last }) : null,
    csrf: ctx.secrets.csrf,
    nonce,
  });
  res.setHeader('content-security-policy', csp(nonce));
  send(res, 200, 'text/html; charset=utf-8', html);
}

function csp(nonce: string): string {
  return `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;
}

async function post(req: IncomingMessage, res: ServerResponse, path: string, ctx: RouteContext): Promise<void> {
  const problem = postProblem(req, ctx);
  if (problem) return json(res, 403, { error: problem });
  const body = await readBody(req);
  if (body === undefined) return json(res, 413, { error: 'the request is too large' });
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return json(res, 400, { error: 'the request is not JSON' });
  }
  if (path === '/api/done') {
    // Done once the answer has left, so the page can say so before the server stops.
    res.on('finish', ctx.finish);
    return json(res, 200, { recorded: ctx.session.recorded });
  }
  const request = decideRequest(data);
  if (typeof request === 'string') return json(res, 400, { error: request });
  const results = ctx.session.decide(request.verdict, request.rows, request.note);
  ctx.onDecision?.(request.verdict, results);
  json(res, 200, { results });
}

/** Why a POST is refused: not from the page (its Origin, its CSRF value, a JSON body), or null. */
function postProblem(req: IncomingMessage, ctx: RouteContext): string | null {
  if (req.headers.origin !== ctx.origin) return 'the request does not come from the review page';
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return 'the request does not come from the review page';
  if (!sameSecret(headerOf(req, 'x-review-csrf'), ctx.secrets.csrf)) return 'the request does not carry the page’s check value: reload the page';
  if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) return 'the request is not JSON';
  return null;
}

/** The decision a POST asks for, or what is wrong with it. */
function decideRequest(data: unknown): { verdict: Verdict; rows: DecideRow[]; note: string | null } | string {
  if (typeof data !== 'object' || data === null) return 'the request is not an object';
  const { verdict, rows, note } = data as Record<string, unknown>;
  if (verdict !== 'ACCEPTED' && verdict !== 'REJECTED') return 'verdict must be ACCEPTED or REJECTED';
  if (!Array.isArray(rows) || rows.length === 0 || rows.length > MAX_ROWS_PER_DECISION || !rows.every(isDecideRow)) {
    return `rows must be 1 to ${MAX_ROWS_PER_DECISION} rows, each {row, seen, reviewed} as the page drew it`;
  }
  if (note !== undefined && note !== null && typeof note !== 'string') return 'note must be text';
  // A note is shown to later reviewers and auditors: no control or bidi characters in it.
  const text = typeof note === 'string' ? stripControl(note.trim().slice(0, MAX_NOTE_CHARS)) : '';
  const unique = new Map((rows as DecideRow[]).map((r) => [r.row, { row: r.row, seen: r.seen, reviewed: r.reviewed }]));
  return { verdict, rows: [...unique.values()], note: text === '' ? null : text };
}

function isDecideRow(value: unknown): value is DecideRow {
  if (typeof value !== 'object' || value === null) return false;
  const { row, seen, reviewed } = value as Record<string, unknown>;
  return Number.isInteger(row) && (row as number) > 0 && typeof seen === 'string' && seen.length <= 64 && Number.isInteger(reviewed) && (reviewed as number) >= 0;
}

function wholeNumber(text: string | null): number | undefined {
  if (text === null || !/^\d{1,12}$/.test(text)) return undefined;
  return Number(text);
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(undefined);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function refuse(res: ServerResponse, why: string): void {
  send(res, 403, 'text/plain; charset=utf-8', `Forbidden: ${why}.\n`);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, 'application/json', JSON.stringify(body));
}

/** Every answer: no framing, no sniffing, no caching, no referrer; a CSP that allows nothing unless page() set one. */
function send(res: ServerResponse, status: number, type: string, body: string): void {
  if (!res.hasHeader('content-security-policy')) res.setHeader('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
  res.setHeader('x-frame-options', 'DENY');
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'no-referrer');
  res.setHeader('cache-control', 'no-store');
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
