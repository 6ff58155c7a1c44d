/** A fetch of a session the API says is gone: recorded as Expired, and explained. */
import { isVasError } from '../api/errors.js';
import type { DocsStore } from '../state/docs-store.js';

export function explainFetchError(error: unknown, sessionId: string, store: DocsStore): unknown {
  if (isVasError(error) && error.kind === 'session-expired') {
    store.setStatus(sessionId, 'Expired');
    return error.with({
      message: `session ${sessionId} has expired or is not known to the API ("${error.message}"): start a new session with \`vas-verify docs init\``,
    });
  }
  return error;
}
