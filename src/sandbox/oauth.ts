/** Bearer tokens: the static one, and those issued by the OAuth client-credentials endpoint (POST /oauth/v1/token). */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Exchange, Responder } from './exchange.js';
import { basicCredentials, bearerToken, formFields, readBody } from './http-util.js';
import type { ResolvedOptions } from './options.js';
import type { SandboxCounters } from './stats.js';

/** Accepted bearer tokens: the configured one, and issued tokens until they expire. */
export class TokenStore {
  /** Issued OAuth tokens → expiry (ms since epoch). */
  private readonly issued = new Map<string, number>();

  constructor(
    private readonly staticToken: string,
    private readonly ttlSeconds: number,
    private readonly now: () => number,
  ) {}

  isAuthorized(req: IncomingMessage): boolean {
    const token = bearerToken(req);
    if (token === null) return false;
    if (token === this.staticToken) return true;
    const expiresAt = this.issued.get(token);
    if (expiresAt === undefined) return false;
    if (this.now() < expiresAt) return true;
    this.issued.delete(token);
    return false;
  }

  /** Forgets expired tokens and issues a new one. */
  issue(): string {
    const now = this.now();
    for (const [token, expiresAt] of this.issued) if (expiresAt <= now) this.issued.delete(token);
    const accessToken = `sbx_${randomBytes(24).toString('base64url')}`;
    this.issued.set(accessToken, now + this.ttlSeconds * 1000);
    return accessToken;
  }
}

/** POST /oauth/v1/token, routed only when a client id and secret are configured. */
export class TokenEndpoint {
  constructor(
    private readonly config: ResolvedOptions,
    private readonly tokens: TokenStore,
    private readonly counters: SandboxCounters,
    private readonly responder: Responder,
  ) {}

  async handle(ex: Exchange): Promise<void> {
    this.counters.countRequest('token');
    const body = await readBody(ex.req);
    const client = this.config.client;
    if (client === null) return this.responder.notFound(ex);
    const fields = formFields(ex.req, body);
    const basic = basicCredentials(ex.req);
    const id = basic?.id ?? fields.get('client_id');
    const secret = basic?.secret ?? fields.get('client_secret');
    const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };
    if (id !== client.id || secret !== client.secret) {
      return this.responder.sendJson(ex, 401, { error: 'invalid_client' }, {
        ...noStore,
        'www-authenticate': 'Basic realm="vas-verify sandbox"',
      });
    }
    const grantType = fields.get('grant_type');
    if (grantType !== 'client_credentials') {
      const error = grantType === undefined ? 'invalid_request' : 'unsupported_grant_type';
      return this.responder.sendJson(ex, 400, { error }, noStore);
    }
    const accessToken = this.tokens.issue();
    const answer = { access_token: accessToken, token_type: 'Bearer', expires_in: this.config.tokenTtlSeconds };
    return this.responder.sendJson(ex, 200, answer, noStore);
  }
}
