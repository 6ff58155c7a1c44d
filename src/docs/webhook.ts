/**
 * Pure decisions of the webhook side of the flow: which callback URLs `docs init` may send,
 * and what the `docs listen` receiver answers to a request, before and after reading its body.
 */
import { createHash } from 'node:crypto';

/** Largest callback body accepted; larger ones get 413 (the real payloads are < 1 KiB). */
export const MAX_WEBHOOK_BODY_BYTES = 64 * 1024;

export type UrlCheck = { ok: true; url: string } | { ok: false; reason: string };

/** A callback URL must be absolute http(s) with a host; returns it normalised. */
export function checkWebhookUrl(text: string): UrlCheck {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'it is empty' };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, reason: 'it is not an absolute URL (expected e.g. https://hooks.example.com/vas/success)' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: `it must start with http:// or https://, not ${url.protocol}//` };
  if (url.hostname === '') return { ok: false, reason: 'it has no host' };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'it must not carry a user name or password' };
  return { ok: true, url: url.toString() };
}

export type WebhookKind = 'success' | 'failure';

/** The receiver's two secret paths. */
export interface WebhookPaths {
  success: string;
  failure: string;
}

export function webhookPaths(secret: string): WebhookPaths {
  return { success: `/hooks/${secret}/success`, failure: `/hooks/${secret}/failure` };
}

/** What the receiver does with a request once it has seen the request line and headers. */
export type HeadDecision =
  | { action: 'read'; kind: WebhookKind }
  | { action: 'reject'; status: 404 | 405 | 413 | 415; message: string; allow?: string };

export interface RequestHead {
  method: string;
  /** The path without the query string. */
  path: string;
  contentType: string | undefined;
  /** Declared length, when there is a Content-Length header. */
  contentLength: number | undefined;
}

/**
 * Order matters: an unknown path is 404 whatever the method (so a scan learns nothing), then
 * the method, then the media type, then a declared size over the limit.
 */
export function decideHead(head: RequestHead, paths: WebhookPaths, matches: (a: string, b: string) => boolean = (a, b) => a === b): HeadDecision {
  const kind: WebhookKind | undefined = matches(head.path, paths.success) ? 'success' : matches(head.path, paths.failure) ? 'failure' : undefined;
  if (kind === undefined) return { action: 'reject', status: 404, message: 'not found' };
  if (head.method !== 'POST') return { action: 'reject', status: 405, message: 'use POST', allow: 'POST' };
  if (!isJsonType(head.contentType)) return { action: 'reject', status: 415, message: 'send application/json' };
  if (head.contentLength !== undefined && head.contentLength > MAX_WEBHOOK_BODY_BYTES) {
    return { action: 'reject', status: 413, message: `body larger than ${MAX_WEBHOOK_BODY_BYTES} bytes` };
  }
  return { action: 'read', kind };
}

/** application/json or any `+json` type, with or without parameters. */
export function isJsonType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/** A callback as recorded: the parts we understand, and the body exactly as received. */
export interface WebhookEvent {
  kind: WebhookKind;
  sessionId: string | null;
  status: string | null;
  /** The payload's own event name, e.g. doclocker.success. */
  event: string | null;
  payload: string;
  /** sha256 of kind and body: a repeated delivery has the same digest. */
  digest: string;
}

export type BodyDecision = { ok: true; event: WebhookEvent } | { ok: false; status: 400; message: string };

/**
 * The body of a callback: UTF-8 JSON object; `sessionId`, `status` and `event` are read when
 * they are strings (the payload is not specified beyond that, so other fields are kept as-is).
 */
export function parseWebhookBody(kind: WebhookKind, body: Uint8Array): BodyDecision {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return { ok: false, status: 400, message: 'body is not UTF-8' };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, status: 400, message: 'body is not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, status: 400, message: 'body must be a JSON object' };
  }
  const record = value as Record<string, unknown>;
  const sessionId = record['sessionId'];
  if (sessionId !== undefined && (typeof sessionId !== 'string' || sessionId === '' || sessionId.length > 200)) {
    return { ok: false, status: 400, message: 'sessionId must be a non-empty string' };
  }
  const text8 = (key: string): string | null => {
    const v = record[key];
    return typeof v === 'string' ? v.slice(0, 200) : null;
  };
  return {
    ok: true,
    event: {
      kind,
      sessionId: typeof sessionId === 'string' ? sessionId : null,
      status: text8('status'),
      event: text8('event'),
      payload: text,
      digest: webhookDigest(kind, body),
    },
  };
}

export function webhookDigest(kind: WebhookKind, body: Uint8Array): string {
  return createHash('sha256').update(kind).update('\n').update(body).digest('hex');
}
