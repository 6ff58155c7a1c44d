/** Document-locker flow (docs/ARCHITECTURE.md, "Document locker"): fetch with backoff, safe downloads, webhook receiver. */
export { fetchDocuments, type FetchOutcome, type WaitOptions } from './fetch.js';
export { saveDocuments, checkDownloadDir, DownloadDirError, type SaveOptions, type SaveReport, type SavedFile, type SaveFailure } from './download.js';
export { startWebhookListener, newWebhookSecret, type WebhookListener, type WebhookListenerOptions } from './listener.js';
export { classifyStatus, nextPollDelay, DEFAULT_POLL_POLICY, DEFAULT_WAIT_TIMEOUT, type PollPolicy, type StatusClass } from './poll.js';
export { checkPdf, checkXml, type FileCheck } from './validate.js';
export { safeSegment, isSafeSessionId, planDocumentFiles, type DocumentFilePlan } from './files.js';
export {
  checkWebhookUrl,
  decideHead,
  parseWebhookBody,
  webhookPaths,
  isJsonType,
  MAX_WEBHOOK_BODY_BYTES,
  type WebhookEvent,
  type WebhookKind,
} from './webhook.js';
export { formatDob, formatDocumentsTable, formatSessionsTable, maskAadhaar, toDocumentView, toCell, type DocumentView } from './format.js';
