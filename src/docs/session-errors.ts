/**
 * A document-locker session belongs to the API that started it. A fetch of a session the API says
 * is gone is recorded as Expired and explained — unless the fetch went to another API than the
 * one that started it (another --base-url): there the session was never known, and it is refused.
 */
import { isVasError } from '../api/errors.js';
import { UsageError } from '../errors.js';
import type { DocsStore } from '../state/docs-store.js';

/**
 * How a session records the API it was started with: the base URL without credentials, query,
 * fragment or trailing slash; null for the embedded sandbox (`baseUrl` undefined), whose sessions
 * end with the command.
 */
export function apiKey(baseUrl: string | undefined): string | null {
  if (baseUrl === undefined) return null;
  try {
    const url = new URL(baseUrl);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.toString().replace(/\/+$/, '');
  } catch {
    return null;
  }
}

/** Why a fetch of `sessionId` through `api` would go to another API than the one that started it, if it would. */
export function otherApiProblem(sessionId: string, api: string | null, store: DocsStore): string | undefined {
  const started = store.getSession(sessionId)?.api ?? null;
  if (started === null || started === api) return undefined;
  const here = api === null ? 'the embedded sandbox (--sandbox)' : `the API at ${api}`;
  return `session ${sessionId} was started with the API at ${started}, not ${here}: fetch it with --base-url ${started} (nothing was sent)`;
}

/** Refuses (exit 2) a fetch of `sessionId` through another API than the one that started it. */
export function checkSessionApi(sessionId: string, api: string | null, store: DocsStore): void {
  const problem = otherApiProblem(sessionId, api, store);
  if (problem !== undefined) throw new UsageError(problem);
}

export function explainFetchError(error: unknown, sessionId: string, store: DocsStore): unknown {
  if (isVasError(error) && error.kind === 'session-expired') {
    store.setStatus(sessionId, 'Expired');
    return error.with({
      message: `session ${sessionId} has expired or is not known to the API ("${error.message}"): start a new session with \`vas-verify docs init\``,
    });
  }
  return error;
}
