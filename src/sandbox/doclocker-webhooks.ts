/** The document-locker callbacks: fire and forget, each counted as a `webhook` request, all cut off by close(). */
import { request as httpRequest, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { SandboxCounters } from './stats.js';

const WEBHOOK_TIMEOUT_MS = 5000;

export class WebhookSender {
  private readonly inFlight = new Set<ClientRequest>();

  constructor(private readonly counters: SandboxCounters) {}

  /** Fire and forget: a callback that fails is the receiver's problem, as with the real service. */
  send(target: string, payload: Record<string, unknown>): void {
    this.counters.countRequest('webhook');
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
    this.inFlight.add(request);
    const done = (): void => {
      this.inFlight.delete(request);
    };
    request.on('timeout', () => request.destroy());
    request.on('error', done);
    request.on('close', done);
    request.on('response', (response) => response.resume());
    request.end(body);
  }

  /** Aborts every callback still in flight (on close). */
  destroyAll(): void {
    for (const request of this.inFlight) request.destroy();
    this.inFlight.clear();
  }
}
