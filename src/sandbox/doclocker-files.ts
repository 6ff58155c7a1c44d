/** The files of a completed session: their URLs, and GET /files/:token/:docType.(pdf|xml). */
import type { DocumentInfo } from '../api/schemas.js';
import { renderPdf, renderXml, type IssuedDocument } from './documents.js';
import type { Session, SessionStore } from './doclocker-sessions.js';
import type { Exchange, Responder } from './exchange.js';

export class DocumentFiles {
  constructor(
    private readonly sessions: SessionStore,
    private readonly responder: Responder,
    private readonly now: () => number,
    /** The sandbox's `http://HOST:PORT`, known once it listens. */
    private readonly baseUrl: () => string,
  ) {}

  /** A document as doclocker-fetch-status lists it, with its file URLs. */
  info(session: Session, doc: IssuedDocument): DocumentInfo {
    const base = `${this.baseUrl()}/files/${session.fileToken}/${doc.docType}`;
    return { ...doc, pdfUrl: `${base}.pdf`, xmlUrl: `${base}.xml` };
  }

  serve(ex: Exchange, fileToken: string, docType: string, format: 'pdf' | 'xml'): void {
    const live = this.sessions.liveByFileToken(fileToken);
    const doc = live?.documents.find((candidate) => candidate.docType === docType);
    if (live === undefined || doc === undefined) return this.responder.notFound(ex);
    const issuedAt = new Date(live.completedAt ?? this.now());
    const headers = { 'content-disposition': `inline; filename="${docType}.${format}"`, 'cache-control': 'no-store' };
    if (format === 'pdf') return this.responder.send(ex, 200, renderPdf(doc, issuedAt), 'application/pdf', headers);
    return this.responder.send(ex, 200, renderXml(doc, issuedAt), 'application/xml; charset=utf-8', headers);
  }
}
