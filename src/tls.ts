/**
 * TLS for every connection the tool opens (the API, its token endpoint, document hosts, a
 * rediss:// Redis): the certificate is always verified (README, Security). Said explicitly at each
 * connection because Node's default follows the environment: NODE_TLS_REJECT_UNAUTHORIZED=0 (left
 * in a cron file or a shell profile) turned the check off, and the token went to whoever answered.
 * A private CA is added with NODE_EXTRA_CA_CERTS, never by turning the check off.
 */
export const VERIFIED_TLS = { rejectUnauthorized: true } as const;
