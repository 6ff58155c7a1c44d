/** Small node:http helpers for the sandbox: bounded body reading and parsing of auth headers. */
import type { IncomingMessage } from 'node:http';

/** Bodies above this are not buffered (the request is answered as unreadable). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The whole request body as text, or null when it was larger than MAX_BODY_BYTES. */
export function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Keep draining so the connection stays usable, but stop storing.
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** JSON.parse that answers undefined instead of throwing. */
export function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The token of an `Authorization: Bearer …` header, or null. */
export function bearerToken(req: IncomingMessage): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1] ?? null;
}

/** Client id and secret from `Authorization: Basic …` (RFC 6749 §2.3.1 form-encodes both). */
export function basicCredentials(req: IncomingMessage): { id: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.headers.authorization ?? '');
  if (match?.[1] === undefined) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return null;
  const unescape = (part: string): string => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return part;
    }
  };
  return { id: unescape(decoded.slice(0, colon)), secret: unescape(decoded.slice(colon + 1)) };
}

/** Form fields of an urlencoded body, also accepting a JSON object (lenient clients). */
export function formFields(req: IncomingMessage, body: string | null): Map<string, string> {
  const fields = new Map<string, string>();
  if (body === null) return fields;
  if ((req.headers['content-type'] ?? '').includes('json')) {
    const parsed = parseJson(body);
    if (typeof parsed === 'object' && parsed !== null) {
      for (const [key, value] of Object.entries(parsed)) if (typeof value === 'string') fields.set(key, value);
    }
    return fields;
  }
  for (const [key, value] of new URLSearchParams(body)) fields.set(key, value);
  return fields;
}
