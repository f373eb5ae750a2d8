import {
  type AuthorityReportCommand,
  type AuthorityReportRequestedData,
  type EventMetadata,
  authorityReportDecider,
  authorityReportStreamId,
} from '@einvoice/domain';
import { type EventStore, type UnitOfWork, handleCommand } from '@einvoice/domain/infrastructure';
import type { AreaDefinition, ParsedDocument, PeppolCopy, RenderedDocument } from '@einvoice/areas';
import type { Answer } from '../http/answer';
import { type RequestContext, eventMetadata } from '../http/request-context';
import { recordResponse } from '../idempotency/idempotency';
import { type Tracks, recordTracks } from './tracks';

/** A document its area's codec parsed and rendered (with its Peppol copy when it has one): what its report carries. */
export interface AcceptedDocument {
  readonly parsed: ParsedDocument;
  readonly rendered: RenderedDocument;
  readonly peppolCopy?: PeppolCopy;
}

/** Whose report it is, and where it sits. */
export interface ReportOf {
  readonly documentId: string;
  readonly reportId: string;
  readonly tenantId: string;
  readonly supplierId: string;
  readonly requestedAt: string;
  /** Reports the caller submitted together, sent in one call (MyInvois: its submission). */
  readonly batchKey?: string;
  /** Its place in its issuer's chain (chained areas). */
  readonly chainPosition?: number;
}

/** The report of an accepted document: what the reporting worker sends, and the Peppol copy it releases once accepted. */
export function reportRequestOf(area: AreaDefinition, accepted: AcceptedDocument, of: ReportOf): AuthorityReportRequestedData {
  const { parsed, rendered, peppolCopy } = accepted;
  return {
    reportId: of.reportId,
    documentId: of.documentId,
    tenantId: of.tenantId,
    supplierId: of.supplierId,
    area: area.code,
    ruleSetId: parsed.ruleSetId ?? area.ruleSetId,
    documentNumber: parsed.number,
    documentType: parsed.type,
    // Plain JSON (no class instances in an event).
    fields: JSON.parse(JSON.stringify(parsed.fields)) as Record<string, unknown>,
    ...(parsed.total !== undefined ? { total: parsed.total } : {}),
    // Without its attachments' bytes, stored once by the command step (tracks.ts).
    document: { bytes: rendered.bytes, mediaType: rendered.mediaType, sha256: rendered.sha256 },
    payload: parsed.payload ?? {},
    requestedAt: of.requestedAt,
    ...(of.batchKey !== undefined ? { batchKey: of.batchKey } : {}),
    ...(of.chainPosition !== undefined ? { chainPosition: of.chainPosition } : {}),
    ...(peppolCopy ? { peppolCopy } : {}),
  };
}

/** A command to one existing report's stream (a cancellation, an amendment), or one that may exist (a numbered request). */
export interface ReportCommand {
  readonly reportId: string;
  readonly command: AuthorityReportCommand;
}

/**
 * A step of the caller's own in the request's transaction, after its answer and before its tracks, so
 * that what it refuses (a 409) leaves neither (UAE: the document number it takes, apps/gateway/src/areas/uae).
 */
export type InTransaction = (uow: UnitOfWork) => Promise<void>;

/** What a request records besides its answer: the caller's own step, each document's tracks (tracks.ts), commands about reports. */
export interface Recorded {
  readonly also?: InTransaction;
  readonly tracks?: readonly Tracks[];
  readonly commands?: readonly ReportCommand[];
}

/**
 * The pipeline's one command step, in the caller's transaction: the request's answer first (an
 * Idempotency-Key replay gets it; a concurrent retry with the same key waits on it, then replays it),
 * then what it records, so a retry finds either both or neither. Every route that records calls it: a
 * submission of one document or of several (MyInvois), a cancellation, an amendment, a buyer's rejection.
 */
export async function recordRequestIn(uow: UnitOfWork, context: RequestContext, metadata: EventMetadata, answer: Answer, recorded: Recorded): Promise<void> {
  await recordResponse(uow, context.idempotency, answer.statusCode, answer.body);
  await recorded.also?.(uow);
  for (const tracks of recorded.tracks ?? []) await recordTracks(uow, metadata, tracks);
  for (const { reportId, command } of recorded.commands ?? []) {
    await handleCommand(uow, authorityReportDecider, authorityReportStreamId(reportId), command, metadata);
  }
}

/** `recordRequestIn` in a transaction of its own, under the area's rule set unless the document has its own (`ParsedDocument.ruleSetId`). */
export async function recordRequest(store: EventStore, context: RequestContext, area: AreaDefinition, answer: Answer, recorded: Recorded, ruleSetId = area.ruleSetId): Promise<void> {
  const metadata = eventMetadata(context, ruleSetId);
  await store.transaction((uow) => recordRequestIn(uow, context, metadata, answer, recorded));
}
