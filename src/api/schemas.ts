/**
 * zod schemas for every request and response of the remote interface (docs/ARCHITECTURE.md, "The remote interface").
 * The sandbox answers with these shapes and the client validates against them, so this file
 * is the single written-down contract between the two.
 */
import { z } from 'zod';

/** Operation names, as they appear in the path `POST {baseUrl}/vas-api/v1/<op>`. */
export const OPS = {
  pennyLess: 'account-verification-pl',
  pennyDrop: 'account-verification-pd',
  docInit: 'doclocker-init',
  docFetch: 'doclocker-fetch-status',
} as const;
export type OpName = (typeof OPS)[keyof typeof OPS];
export const API_PREFIX = '/vas-api/v1/';
export const DEFAULT_TOKEN_PATH = '/oauth/v1/token';

// ---- requests ----

export const BankRequestSchema = z.object({
  accountNumber: z.string(),
  ifscNumber: z.string(),
});
export type BankRequest = z.infer<typeof BankRequestSchema>;

export const DocInitRequestSchema = z.object({
  pinlessVerification: z.boolean(),
  successWebhookUrl: z.string().url().optional(),
  failureWebhookUrl: z.string().url().optional(),
});
export type DocInitRequest = z.infer<typeof DocInitRequestSchema>;

export const DocFetchRequestSchema = z.object({ sessionId: z.string().min(1) });
export type DocFetchRequest = z.infer<typeof DocFetchRequestSchema>;

// ---- results ----

export const IfscDetailsSchema = z.object({
  ifsc: z.string(),
  name: z.string(),
  branch: z.string(),
  district: z.string(),
  state: z.string(),
  city: z.string(),
  imps: z.boolean(),
  rtgs: z.boolean(),
  neft: z.boolean(),
  upi: z.boolean(),
  micr: z.string().nullable(),
  iso3166: z.string(),
  swift: z.string().nullable(),
});
export type IfscDetails = z.infer<typeof IfscDetailsSchema>;

export const VerificationStatusSchema = z.enum(['VERIFIED', 'NOT_VERIFIED']);
export type VerificationStatus = z.infer<typeof VerificationStatusSchema>;

export const BankResultSchema = z.object({
  accountNumber: z.string(),
  beneficiaryName: z.string().nullable(),
  verificationStatus: VerificationStatusSchema,
  transactionRemark: z.string().nullable(),
  isPennyDrop: z.boolean(),
  ifscDetails: IfscDetailsSchema.nullable(),
});
export type BankResult = z.infer<typeof BankResultSchema>;

export const DocInitResultSchema = z.object({
  sessionId: z.string().uuid(),
  // The page the user is sent to: a web page, never javascript:, data: or file: (printed to be opened).
  url: z.string().url().refine((text) => /^https?:\/\//i.test(text), { message: 'the consent page must be an http(s) URL' }),
});
export type DocInitResult = z.infer<typeof DocInitResultSchema>;

export const DocumentSchema = z.object({
  /** aadhaar | pan | … — other values (driving licence is not specified) are kept as they come. */
  docType: z.string(),
  /** As returned; Aadhaar stays masked (xxxxxxxx1234). */
  idNumber: z.string(),
  name: z.string(),
  /** DDMMYYYY */
  dob: z.string(),
  gender: z.string(),
  pdfUrl: z.string(),
  xmlUrl: z.string(),
});
export type DocumentInfo = z.infer<typeof DocumentSchema>;

export const DocFetchResultSchema = z.object({
  sessionId: z.string(),
  status: z.string(),
  documents: z.array(DocumentSchema),
});
export type DocFetchResult = z.infer<typeof DocFetchResultSchema>;

// ---- envelopes ----

export function successEnvelope<T extends z.ZodTypeAny>(body: T) {
  return z.object({
    ok: z.literal(true),
    responseCode: z.literal(200),
    message: z.string(),
    body,
  });
}

/** A bank operation may answer HTTP 200 with this instead of the success envelope. */
export const ErrorIn200Schema = z.object({
  errorCode: z.literal(200),
  errorType: z.string(),
  errorMessage: z.string(),
});

/** The vendor's published proxy error shape, e.g. 429 `Quota Violation`. */
export const ProxyErrorSchema = z.object({
  errorCode: z.number(),
  errorType: z.string(),
  errorMessage: z.string(),
});

/** The success-envelope shape used for an error. */
export const EnvelopeErrorSchema = z.object({
  ok: z.literal(false),
  responseCode: z.number(),
  message: z.string(),
  body: z.unknown().optional(),
});

export const TokenResponseSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.coerce.number().positive(),
});
export type TokenResponse = z.infer<typeof TokenResponseSchema>;

// ---- messages the service uses (sandbox emits them; client recognises them) ----

export const MESSAGES = {
  ok: 'Transmission OK',
  invalidAccount: 'Invalid Account Number',
  invalidRequest: 'Invalid Request',
  invalidIfsc: 'Invalid IFSC',
  ifscLength: 'Bank IFSC must be 11 characters',
  badBody: 'failed to read request body',
  sessionExpired: 'sessionId expired or invalid',
  invalidCredentials: 'Invalid Credentials',
  quota: 'Quota Violation',
  internal: 'Internal Server Error',
  unavailable: 'Service Not Available',
} as const;

/** The sandbox's wording of the daily-limit answer; the client matches any wording like it. */
export function dailyLimitMessage(accountNumber: string): string {
  return `Daily transaction limit exhausted for account number ${accountNumber}`;
}
export const DAILY_LIMIT_PATTERN = /daily\s+(transaction\s+)?limit/i;
