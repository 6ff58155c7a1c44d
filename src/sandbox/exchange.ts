/**
 * One request and its answer: the exchange, the bodies the sandbox answers with, and the Responder
 * every handler sends through (it counts responses and applies the configured latency to API answers).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MESSAGES } from '../api/schemas.js';
import type { Latency, Waits } from './timing.js';

export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** Control routes (/__sandbox/*) are not counted, so reading stats does not change them. */
  readonly counted: boolean;
}

export type Payload = { readonly json: unknown } | { readonly text: string };

export const JSON_TYPE = 'application/json; charset=utf-8';
export const HTML_TYPE = 'text/html; charset=utf-8';
export const TEXT_TYPE = 'text/plain; charset=utf-8';

export const envelopeError = (status: number, message: string) => ({ ok: false, responseCode: status, message });
export const errorIn200 = (message: string) => ({ errorCode: 200, errorType: 'proxy', errorMessage: message });
export const QUOTA_BODY = { errorCode: 429, errorType: 'proxy', errorMessage: MESSAGES.quota } as const;
export const success = <T>(body: T) => ({ ok: true, responseCode: 200, message: MESSAGES.ok, body });

/** Where answered statuses are counted (the stats counters). */
export interface ResponseCounter {
  countResponse(status: number): void;
}

export class Responder {
  constructor(
    private readonly counter: ResponseCounter,
    private readonly waits: Waits,
    private readonly latency: Latency,
  ) {}

  send(ex: Exchange, status: number, body: string | Buffer, type: string, headers: Record<string, string> = {}): void {
    const { req, res } = ex;
    if (res.headersSent || res.destroyed || req.socket.destroyed) return;
    if (ex.counted) this.counter.countResponse(status);
    res.writeHead(status, { 'content-type': type, 'content-length': String(Buffer.byteLength(body)), ...headers });
    res.end(body);
  }

  sendJson(ex: Exchange, status: number, value: unknown, headers: Record<string, string> = {}): void {
    this.send(ex, status, JSON.stringify(value), JSON_TYPE, headers);
  }

  notFound(ex: Exchange): void {
    this.sendJson(ex, 404, envelopeError(404, 'Not Found'));
  }

  methodNotAllowed(ex: Exchange, allow: string): void {
    this.sendJson(ex, 405, envelopeError(405, 'Method Not Allowed'), { allow });
  }

  /** Every API answer goes through here so the configured latency applies to all of them. */
  async answerApi(ex: Exchange, status: number, payload: Payload, headers: Record<string, string> = {}): Promise<void> {
    await this.waits.wait(this.latency.draw());
    if ('text' in payload) this.send(ex, status, payload.text, TEXT_TYPE, headers);
    else this.sendJson(ex, status, payload.json, headers);
  }

  /** Drops the connection without an answer (a reset the client cannot tell from a crash). */
  async dropConnection(ex: Exchange): Promise<void> {
    await this.waits.wait(this.latency.draw());
    ex.req.socket.destroy();
  }
}
