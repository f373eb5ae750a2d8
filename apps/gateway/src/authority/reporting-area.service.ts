import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  AppError,
  type AuthorityErrorData,
  type AuthorityReportCommand,
  type AuthorityReportRequestedData,
  type SupplierOnboardedData,
  authorityReportDecider,
  authorityReportStreamId,
  conflict,
  documentChainDecider,
  documentChainStateOf,
  documentChainStreamId,
  type EventMetadata,
  issue,
  notFound,
  supplierDecider,
  supplierStreamId,
  SecretBox,
  validationError,
  timeOrderedUuid,
  WrongExpectedVersionError,
} from '@einvoice/domain';
import { type UnitOfWork, handleCommand, measuredConnector, reportedFile } from '@einvoice/domain/infrastructure';
import { type AreaDefinition, type AuthorityConnector, type ChainCodec, type ChainedDocument, type ParsedDocument, type ReferencedDocument, type ReportedDocumentView, areaOf, validateBody } from '@einvoice/areas';
import type { SupplierProfile } from '@einvoice/domain';
import type { Answer } from '../http/answer';
import { type RequestContext, eventMetadata } from '../http/request-context';
import { recordResponse } from '../idempotency/idempotency';
import { Connections } from '../infrastructure/infrastructure.module';
import { SupplierCache, isUuid } from '../suppliers/supplier-lookup';
import { CancellationBody } from './cancellation.dto';
import { Mailer } from '../mail/mailer';
import { AccessCodeBody } from './access-code.dto';
import { KeyedTurns } from './keyed-turns';
import { OutcomeWaiter } from './outcome-waiter';

/** Times a request links its record again after losing the race to its issuer's chain. */
const CHAIN_ATTEMPTS = 20;

/** States of a reported document (libs/domain/src/infrastructure/projections/authority-reports.ts). */
type ReportState = 'pending' | 'processing' | 'reported' | 'rejected' | 'invalid' | 'cancelling' | 'cancelled';
/** Not final: the authority has not given its verdict yet (a `sync` answer waits past them). */
const UNANSWERED: readonly ReportState[] = ['pending', 'processing'];

interface DocumentRow {
  id: string;
  supplier_id: string;
  document_number: string;
  document_type: string;
  state: string;
  /** The report's own state; `state` is the Peppol copy's once one was released (both tracks on one row). */
  report_state: ReportState;
  delivery_status: string | null;
  delivery: { failure?: { code: string; message: string } } | null;
  report_id: string;
  rule_set_id: string;
  fields: Record<string, unknown>;
  authority: {
    receipt?: Record<string, unknown>;
    error?: AuthorityErrorData;
    recovered?: boolean;
    answeredAt?: string;
    cancellationReason?: string;
    cancellationError?: AuthorityErrorData | null;
    amendment?: { id: string; status: 'requested' | 'amended' | 'refused'; error?: AuthorityErrorData };
  } | null;
  rendered: { mediaType: string; sha256: string } | null;
  created_at: Date;
  updated_at: Date;
}

const DOCUMENT_COLUMNS = `id, supplier_id, document_number, document_type, state, report_state, delivery_status, delivery, report_id, rule_set_id, fields, authority, rendered, created_at, updated_at`;
const DOCUMENT_SQL = `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE id = $1 AND supplier_id = $2 AND tenant_id = $3`;
/** A document of the tenant in the area, whichever its supplier (`documents.byIdAlone`). */
const TENANT_DOCUMENT_SQL = `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE id = $1 AND tenant_id = $2 AND area = $3`;

/**
 * The routes every area that reports to a tax authority shares (area registry `onboarding`,
 * `documents`, `authority`): onboarding, submission and reads. A submission appends the report with
 * its 202 answer (the Idempotency-Key's record) in one transaction; for a `sync` area it then waits
 * for the authority's answer (OutcomeWaiter, up to AUTHORITY_WAIT_MS) and answers 200 with it, 400
 * with the authority's refusal, or 202 with where to read it when the wait runs out.
 */
@Injectable()
export class ReportingAreaService {
  private readonly suppliers = new SupplierCache();
  private readonly chainTurns = new KeyedTurns();
  private readonly secretBox = SecretBox.fromEnv();
  private readonly waitMs = Number(process.env.AUTHORITY_WAIT_MS ?? 5_000);
  /** Connectors the gateway itself asks (credential checks at onboarding), one per area. */
  private readonly connectors = new Map<string, AuthorityConnector>();

  constructor(
    private readonly connections: Connections,
    private readonly outcomes: OutcomeWaiter,
    private readonly mailer: Mailer,
  ) {}

  async onboard(code: string, body: unknown, context: RequestContext) {
    const area = areaOf(code);
    const { onboarding } = codecs(area);
    const parsedProfile = onboarding.parse(body);
    const sealedSecrets = onboarding.secrets?.(body) ?? {};
    const secrets = Object.entries(sealedSecrets);
    const told = await this.verifyCredentials(area, sealedSecrets, parsedProfile);
    const profile = told ? { ...parsedProfile, areaDetails: { ...parsedProfile.areaDetails, ...told } } : parsedProfile;
    const supplierId = randomUUID();
    const data: SupplierOnboardedData = { supplierId, tenantId: context.tenant.id, area: code, profile, participantIds: [], onboardedAt: new Date().toISOString() };
    const response = onboarding.respond?.(supplierId, profile) ?? { status: 'success', message: 'Supplier onboarded.', data: { supplier_uuid: supplierId } };
    await this.connections.store.transaction(async (uow) => {
      await recordResponse(uow, context.idempotency, 201, response);
      for (const [name, value] of secrets) {
        await uow.write(`INSERT INTO supplier_secrets (supplier_id, name, sealed) VALUES ($1, $2, $3)`, [supplierId, name, this.secretBox.seal(value)]);
      }
      await handleCommand(uow, supplierDecider, supplierStreamId(supplierId), { type: 'OnboardSupplier', data }, eventMetadata(context, area.ruleSetId));
    });
    return response;
  }

  /**
   * The authority's check of the credentials a supplier gives at onboarding (connector
   * `verifyCredentials`), before anything is stored and outside any transaction: a refusal is a 400 at
   * the field the area names (its `path`), with the authority's code and message.
   */
  private async verifyCredentials(area: AreaDefinition, secrets: Readonly<Record<string, string>>, profile: SupplierProfile): Promise<Readonly<Record<string, unknown>> | undefined> {
    if (!Object.keys(secrets).length) return undefined;
    const connector = this.connectorOf(area);
    if (!connector) return undefined;
    if (!connector.verifyCredentials) return undefined;
    const check = await connector.verifyCredentials(secrets, profile);
    if ('refused' in check) throw validationError([issue(check.refused.path ?? '', check.refused.code, check.refused.message)]);
    return check.details;
  }

  /** The area's connector in the gateway (credential checks, reads), made once per area. */
  private connectorOf(area: AreaDefinition): AuthorityConnector | undefined {
    if (!area.authority.connector) return undefined;
    let connector = this.connectors.get(area.code);
    if (!connector) {
      const query = (sql: string, parameters?: unknown[]) => this.connections.dataSource.query(sql, parameters);
      connector = measuredConnector(area.code, area.authority.connector({ query: query as never, env: process.env }));
      this.connectors.set(area.code, connector);
    }
    return connector;
  }

  /** A read from the authority for the supplier (connector `read`), outside any transaction. */
  async askAuthority(code: string, supplierRef: string | undefined, name: string, params: Readonly<Record<string, unknown>>, context: RequestContext): Promise<unknown> {
    const area = areaOf(code);
    const supplier = await this.suppliers.find(this.connections.dataSource, context.tenant.id, code, supplierRef);
    const connector = this.connectorOf(area);
    if (!connector?.read) throw notFound('AUTHORITY.NO_READ', `The ${area.name} authority answers no ${name}.`);
    return connector.read(name, params, { id: supplier.id, profile: supplier.profile });
  }

  async submit(code: string, supplierRef: string | undefined, body: unknown, context: RequestContext, variant?: string): Promise<Answer> {
    try {
      return await this.submitDocument(code, supplierRef, body, context, variant);
    } catch (error) {
      throw atNumberField(error, codecs(areaOf(code)).documents.numberField);
    }
  }

  private async submitDocument(code: string, supplierRef: string | undefined, body: unknown, context: RequestContext, variant?: string): Promise<Answer> {
    const area = areaOf(code);
    const supplier = await this.suppliers.find(this.connections.dataSource, context.tenant.id, code, supplierRef);
    const { documents } = codecs(area);
    const asParsed = documents.parse(body, supplier.profile, variant);
    const referenced = asParsed.refersTo ? await this.referenced(supplier.id, asParsed.refersTo) : undefined;
    const parsed = referenced && documents.resolve ? documents.resolve(asParsed, referenced, supplier.profile) : asParsed;
    const documentId = timeOrderedUuid();
    const reportId = randomUUID();
    const peppolCopy = documents.peppolCopy?.(parsed, supplier.profile, documentId);
    const base = {
      reportId,
      documentId,
      tenantId: context.tenant.id,
      supplierId: supplier.id,
      area: code,
      ruleSetId: area.ruleSetId,
      documentNumber: parsed.number,
      documentType: parsed.type,
      fields: JSON.parse(JSON.stringify(parsed.fields)) as Record<string, unknown>,
      ...(peppolCopy ? { peppolCopy } : {}),
    };
    const href = `/${area.documentsPath ?? `${area.routePrefix}/documents`}/${documentId}`;
    const pending = { status: 'pending', data: { documentId, documentNumber: parsed.number, state: 'pending', href } };
    const metadata = eventMetadata(context, area.ruleSetId);
    const request = (uow: UnitOfWork, data: AuthorityReportRequestedData) =>
      handleCommand(uow, authorityReportDecider, authorityReportStreamId(reportId), { type: 'RequestAuthorityReport', data }, metadata, { newStream: true });

    if (documents.chain) {
      const chained = await this.chain(area, documents.chain, parsed, supplier, { documentId, reportId }, async (uow, next, at, chainPosition) => {
        const own = documents.respond?.({ documentId, number: parsed.number, answer: next.answer });
        await recordResponse(uow, context.idempotency, own?.statusCode ?? 202, own?.body ?? pending);
        await request(uow, { ...base, fields: { ...base.fields, ...next.fields }, document: next.document, payload: next.payload, requestedAt: at, chainPosition });
      }, metadata);
      const own = documents.respond?.({ documentId, number: parsed.number, answer: chained.answer });
      if (own) return own;
    } else {
      const data: AuthorityReportRequestedData = {
        ...base,
        document: documents.render(parsed, supplier.profile, documentId),
        payload: parsed.payload ?? {},
        requestedAt: new Date().toISOString(),
      };
      await this.connections.store.transaction(async (uow) => {
        // A replay of this request answers the 202 with the link: the outcome is read there.
        await recordResponse(uow, context.idempotency, 202, pending);
        await request(uow, data);
      });
      const own = documents.respond?.({ documentId, number: parsed.number });
      if (own) return own;
    }
    if (area.authority.answer !== 'sync') return { statusCode: 202, body: pending };
    const row = await this.outcomes.waitFor(documentId, this.waitMs, () => this.read(documentId, supplier.id, context), (r) => !UNANSWERED.includes(r.report_state));
    // Taken for processing only, or no answer within the wait: where to read the verdict.
    if (!row || UNANSWERED.includes(row.report_state)) return { statusCode: 202, body: { ...pending, data: { ...pending.data, state: row?.report_state ?? 'pending' } } };
    if ((row.report_state === 'rejected' || row.report_state === 'invalid') && !documents.refusalIsAnswer) throw refusal(area, row.authority?.error);
    // The area's own answer (Jordan: `{status, message: {uuid, qr_code}}`), else the document.
    return { statusCode: 200, body: documents.present ? documents.present(view(row), 'answer') : { status: 'success', data: view(row) } };
  }

  /**
   * Links the document as the next record of its issuer's chain and records it (`record`, in the
   * same transaction as the chain's append): the append expects the chain's version as read, so a
   * request that lost the race to another of the same issuer reads the chain again and links on the
   * winner's record (up to CHAIN_ATTEMPTS times; then a retriable 503), never forking the chain.
   */
  private async chain(
    area: AreaDefinition,
    codec: ChainCodec,
    parsed: ParsedDocument,
    supplier: { readonly id: string; readonly profile: SupplierProfile },
    ids: { readonly documentId: string; readonly reportId: string },
    record: (uow: UnitOfWork, next: ChainedDocument, at: string, position: number) => Promise<void>,
    metadata: EventMetadata,
  ): Promise<ChainedDocument> {
    const streamId = documentChainStreamId(area.code, supplier.id);
    const prepared = await codec.prepare?.(parsed, supplier.profile);
    // One request per chain at a time in this process: the others would only lose the race. Other
    // gateways still race, and the expected version settles it.
    return this.chainTurns.inTurn(streamId, async () => {
      for (let attempt = 1; ; attempt += 1) {
        // The chain's state is its last link: one row, however long the chain.
        const state = documentChainStateOf(await this.connections.store.readLast(streamId));
        const at = new Date();
        const next = await codec.link(parsed, supplier.profile, { documentId: ids.documentId, previous: state.last, at, prepared });
        try {
          await this.connections.store.transaction(async (uow) => {
            await record(uow, next, at.toISOString(), state.length + 1);
            await handleCommand(
              uow,
              documentChainDecider,
              streamId,
              { type: 'AppendToChain', data: { ...ids, link: next.link, chainedAt: at.toISOString() } },
              metadata,
              { from: { state, version: state.length } },
            );
          });
          return next;
        } catch (error) {
          if (!(error instanceof WrongExpectedVersionError)) throw error;
          if (attempt >= CHAIN_ATTEMPTS) throw new AppError('unavailable', 'CHAIN.BUSY', 'Too many records of this issuer at once; retry shortly.', { retriable: true });
        }
      }
    });
  }

  /**
   * Asks the authority to cancel a reported document (where its connector can): the request is
   * recorded with its 202 answer in one transaction; for a `sync` area the answer then waits for the
   * authority's (200 with the document, 409 with its refusal), else 202 with where to read it.
   */
  async cancel(code: string, supplierRef: string | undefined, id: string, body: unknown, context: RequestContext): Promise<Answer> {
    const area = areaOf(code);
    const supplier = await this.suppliers.find(this.connections.dataSource, context.tenant.id, code, supplierRef);
    const { reason } = validateBody(CancellationBody, body);
    const row = isUuid(id) ? await this.read(id, supplier.id, context) : undefined;
    if (!row) throw notFound('DOCUMENT.NOT_FOUND', `No document ${id} for this supplier.`);
    const requestedAt = new Date().toISOString();
    const { pending, after } = await this.requestOfAuthority(area, row, context, 'cancelling', { type: 'RequestReportCancellation', data: { reportId: row.report_id, reason, requestedAt } }, (r) => r.report_state !== 'cancelling');
    if (!after) return { statusCode: 202, body: pending };
    if (after.report_state !== 'cancelled') throw cancellationRefusal(area, after.authority?.cancellationError ?? undefined);
    return { statusCode: 200, body: { status: 'success', data: view(after) } };
  }

  /**
   * Asks the authority to amend an accepted document (where the area reads amendments,
   * `documents.amendment`): recorded with its 202 answer in one transaction; for a `sync` area the answer
   * then waits for the authority's (200 with the document as the area shows it, 400 with its refusal),
   * else 202 with where to read it.
   */
  async amend(code: string, supplierRef: string | undefined, id: string, body: unknown, context: RequestContext): Promise<Answer> {
    const area = areaOf(code);
    const { documents } = codecs(area);
    if (!documents.amendment) throw notFound('AMENDMENT.NOT_SUPPORTED', `Documents of ${area.name} cannot be amended.`);
    const change = documents.amendment(body);
    const row = await this.ownDocument(code, supplierRef, id, context);
    const amendmentId = randomUUID();
    const answered = (r: DocumentRow) => r.authority?.amendment?.id === amendmentId && r.authority.amendment.status !== 'requested';
    const { pending, after } = await this.requestOfAuthority(area, row, context, 'amending', { type: 'RequestReportAmendment', data: { reportId: row.report_id, amendmentId, change, requestedAt: new Date().toISOString() } }, answered);
    if (!after) return { statusCode: 202, body: pending };
    const amendment = after.authority!.amendment!;
    if (amendment.status === 'refused') {
      const error = amendment.error;
      throw new AppError('validation', 'AUTHORITY.AMENDMENT_REFUSED', `The ${area.name} tax authority refused the change: ${error?.message ?? 'refused'}`, { issues: [issue(error?.path ?? '', error?.code ?? 'AUTHORITY.AMENDMENT_REFUSED', error?.message ?? 'Refused.')] });
    }
    return { statusCode: 200, body: documents.present ? documents.present(view(after)) : { status: 'success', data: view(after) } };
  }

  /**
   * Records a request about a reported document for its authority (a cancellation, an amendment) with
   * its 202 answer in one transaction; for a `sync` area, waits for the authority's answer (`answered`).
   * `after` is the document once answered, undefined when the answer is to be read later.
   */
  private async requestOfAuthority(
    area: AreaDefinition,
    row: DocumentRow,
    context: RequestContext,
    state: string,
    command: AuthorityReportCommand,
    answered: (row: DocumentRow) => boolean,
  ): Promise<{ pending: { status: string; data: Record<string, unknown> }; after?: DocumentRow }> {
    const href = `/${area.documentsPath ?? `${area.routePrefix}/documents`}/${row.id}`;
    const pending = { status: 'pending', data: { documentId: row.id, documentNumber: row.document_number, state, href } };
    await this.connections.store.transaction(async (uow) => {
      await recordResponse(uow, context.idempotency, 202, pending);
      await handleCommand(uow, authorityReportDecider, authorityReportStreamId(row.report_id), command, eventMetadata(context, area.ruleSetId));
    });
    if (area.authority.answer !== 'sync') return { pending };
    const after = await this.outcomes.waitFor(row.id, this.waitMs, () => this.read(row.id, row.supplier_id, context), answered);
    return { pending, ...(after && answered(after) ? { after } : {}) };
  }

  async document(code: string, supplierRef: string | undefined, id: string, context: RequestContext, variant?: string) {
    const row = await this.ownDocument(code, supplierRef, id, context);
    const present = codecs(areaOf(code)).documents.present;
    return present ? present(view(row), variant) : { status: 'success', data: view(row) };
  }

  /** The document exactly as rendered and sent to the authority (Poland: the FA(3) XML). */
  async documentFile(code: string, supplierRef: string | undefined, id: string, context: RequestContext): Promise<{ bytes: string; mediaType: string }> {
    return this.fileOf(await this.ownDocument(code, supplierRef, id, context));
  }

  private async fileOf(row: DocumentRow): Promise<{ bytes: string; mediaType: string }> {
    const file = await reportedFile((sql, params) => this.connections.dataSource.query(sql, params), row.id);
    if (!file) throw notFound('DOCUMENT.NO_FILE', `Document ${row.id} has no rendered file.`);
    return { bytes: file.bytes, mediaType: file.mediaType ?? 'application/octet-stream' };
  }

  /**
   * Sends an access code to one document (Poland's `access-code/send`): a random code whose SHA-256
   * alone is kept (`document_shares`), valid ACCESS_CODE_TTL_HOURS (72) and, from its first use,
   * ACCESS_CODE_USE_MINUTES (15); then mailed with its link, outside any transaction; the answer is
   * recorded for an Idempotency-Key replay only once the mail went.
   */
  async shareDocument(code: string, supplierRef: string | undefined, body: unknown, context: RequestContext) {
    const area = areaOf(code);
    const { document_id: documentId, recipient_email: to } = validateBody(AccessCodeBody, body);
    const row = await this.ownDocument(code, supplierRef, documentId, context);
    const accessCode = randomBytes(24).toString('base64url');
    const codeHash = createHash('sha256').update(accessCode).digest('hex');
    const ttlHours = Number(process.env.ACCESS_CODE_TTL_HOURS ?? 72);
    const [share]: Array<{ expires_at: Date }> = await this.connections.dataSource.query(
      `INSERT INTO document_shares (code_hash, document_id, tenant_id, supplier_id, area, recipient_email, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(hours => $7)) RETURNING expires_at`,
      [codeHash, row.id, context.tenant.id, row.supplier_id, code, to, ttlHours],
    );
    const base = process.env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
    const link = `${base}/${area.routePrefix}/shared/${accessCode}`;
    const expires = new Date(share.expires_at).toISOString();
    await this.mailer.send({
      to,
      subject: `Invoice ${row.document_number}`,
      text: `An invoice has been shared with you: ${row.document_number}.\n\nAccess code: ${accessCode}\nOpen it here (until ${expires}): ${link}\nThe XML as sent: ${link}/xml\n`,
    });
    const response = { status: 'success', message: `The access code to document ${row.id} was sent to ${to}; it expires at ${expires}.` };
    await this.connections.store.transaction(async (uow) => {
      await uow.write(`UPDATE document_shares SET sent_at = now() WHERE code_hash = $1`, [codeHash]);
      await recordResponse(uow, context.idempotency, 200, response);
    });
    return response;
  }

  /** The document an access code opens, as the area shows it (no API key: the code is the credential). */
  async sharedDocument(code: string, accessCode: string, variant?: string) {
    const row = await this.openShare(code, accessCode);
    const present = codecs(areaOf(code)).documents.present;
    return present ? present(view(row), variant) : { status: 'success', data: view(row) };
  }

  /** The file an access code opens (Poland: the FA(3) XML as sent). */
  async sharedFile(code: string, accessCode: string): Promise<{ bytes: string; mediaType: string }> {
    return this.fileOf(await this.openShare(code, accessCode));
  }

  /** A valid code's document: known, not expired, not used up; else 404 with nothing said about why. */
  private async openShare(code: string, accessCode: string): Promise<DocumentRow> {
    const codeHash = createHash('sha256').update(String(accessCode)).digest('hex');
    const [share]: Array<{ document_id: string; supplier_id: string; tenant_id: string }> = await this.connections.dataSource.query(
      `WITH opened AS (
         UPDATE document_shares SET first_used_at = coalesce(first_used_at, now())
         WHERE code_hash = $1 AND area = $2 AND expires_at > now()
           AND (first_used_at IS NULL OR first_used_at > now() - make_interval(mins => $3))
         RETURNING document_id, supplier_id, tenant_id)
       SELECT * FROM opened`,
      [codeHash, code, Number(process.env.ACCESS_CODE_USE_MINUTES ?? 15)],
    );
    const rows: DocumentRow[] = share ? await this.connections.dataSource.query(DOCUMENT_SQL, [share.document_id, share.supplier_id, share.tenant_id]) : [];
    if (!rows[0]) throw notFound('SHARE.NOT_FOUND', 'No such access code, or it has expired or been used up.');
    return rows[0];
  }

  /**
   * A document of this tenant's supplier, else 404 (another tenant's is not found either). Where the area
   * finds documents by id alone (`documents.byIdAlone`: Poland) and the route names no supplier, the
   * tenant's document in the area whichever its supplier; a supplier named must still be the document's.
   */
  private async ownDocument(code: string, supplierRef: string | undefined, id: string, context: RequestContext): Promise<DocumentRow> {
    const { byIdAlone, readKey } = codecs(areaOf(code)).documents;
    if (byIdAlone && supplierRef === undefined) {
      const rows: DocumentRow[] = isUuid(id) ? await this.connections.dataSource.query(TENANT_DOCUMENT_SQL, [id, context.tenant.id, code]) : [];
      if (!rows[0]) throw notFound('DOCUMENT.NOT_FOUND', `No document ${id} in this area for your account.`);
      return rows[0];
    }
    const supplier = await this.suppliers.find(this.connections.dataSource, context.tenant.id, code, supplierRef);
    const row = isUuid(id) ? await this.read(id, supplier.id, context) : readKey ? await this.readBy(readKey, String(id), supplier.id, context) : undefined;
    if (!row) throw notFound('DOCUMENT.NOT_FOUND', `No document ${id} for this supplier.`);
    return row;
  }

  /** A document by the area's read key (`documents.readKey`): the one not refused, else the latest. */
  private async readBy(key: string, value: string, supplierId: string, context: RequestContext): Promise<DocumentRow | undefined> {
    const rows: DocumentRow[] = await this.connections.dataSource.query(
      `${DOCUMENT_SQL.replace('WHERE id = $1 AND', 'WHERE fields->>$4 = $1 AND')} ORDER BY (coalesce(report_state, '') IN ('rejected', 'invalid')), created_at DESC LIMIT 1`,
      [value, supplierId, context.tenant.id, key],
    );
    return rows[0];
  }

  /** The earlier document a new one refers to (`ParsedDocument.refersTo`: by id, or by number and fields), else 404. */
  private async referenced(supplierId: string, refersTo: NonNullable<ParsedDocument['refersTo']>): Promise<ReferencedDocument> {
    const rows: Array<{ id: string; document_number: string; document_type: string; state: string; fields: Record<string, unknown>; authority: { receipt?: Record<string, unknown> } | null }> =
      refersTo.id !== undefined
        ? isUuid(refersTo.id)
          ? await this.connections.dataSource.query(
              `SELECT id, document_number, document_type, coalesce(report_state, state) AS state, fields, authority FROM documents WHERE supplier_id = $1 AND direction = 'outgoing' AND id = $2`,
              [supplierId, refersTo.id],
            )
          : []
        : await this.connections.dataSource.query(
            `SELECT id, document_number, document_type, coalesce(report_state, state) AS state, fields, authority FROM documents
             WHERE supplier_id = $1 AND direction = 'outgoing' AND document_number = $2 AND fields @> $3::jsonb
             ORDER BY (coalesce(report_state, '') IN ('rejected', 'invalid')) LIMIT 1`,
            [supplierId, refersTo.number, JSON.stringify(refersTo.fields ?? {})],
          );
    const [row] = rows;
    if (!row) throw notFound('DOCUMENT.NOT_FOUND', `No document ${refersTo.id ?? refersTo.number} of this supplier${refersTo.fields ? ' with these fields' : ''}.`);
    return { documentId: row.id, number: row.document_number, type: row.document_type, state: row.state, fields: row.fields, receipt: row.authority?.receipt ?? null };
  }

  private async read(documentId: string, supplierId: string, context: RequestContext): Promise<DocumentRow | undefined> {
    const rows: DocumentRow[] = await this.connections.dataSource.query(DOCUMENT_SQL, [documentId, supplierId, context.tenant.id]);
    return rows[0];
  }
}

/** A duplicate number's 409 names the area's own number field (the shared constraint message says `ID`). */
function atNumberField(error: unknown, field: string | undefined): unknown {
  if (!field || !(error instanceof AppError) || error.code !== 'DOCUMENT.DUPLICATE_ID') return error;
  return conflict(error.code, error.message.replace(/\bID\b/, field), error.issues.map((i) => (i.path === 'ID' ? { ...i, path: field, message: i.message.replace(/^ID\b/, field) } : i)));
}

/** An area served by these routes must declare how it reads bodies (a registry mistake, found at the first request of that area). */
function codecs(area: AreaDefinition) {
  if (!area.onboarding || !area.documents) {
    throw new AppError('internal', 'AREA.NO_CODEC', `Area ${area.code} declares no onboarding/documents codec.`, { retriable: false });
  }
  return { onboarding: area.onboarding, documents: area.documents };
}

/** The authority's refusal, in the one error shape: its own code and message, at its field when it names one. */
function refusal(area: AreaDefinition, error: AuthorityErrorData | undefined): AppError {
  const code = error?.code ?? 'AUTHORITY.REJECTED';
  const message = error?.message ?? 'Refused.';
  const each = error?.details?.length ? error.details : [{ code, message, path: error?.path }];
  return new AppError('validation', 'AUTHORITY.REJECTED', `The ${area.name} tax authority refused the document: ${message}`, {
    issues: each.map((e) => issue(e.path ?? '', e.code, e.message)),
  });
}

/** The authority's refusal to cancel: 409, its own code and message. */
function cancellationRefusal(area: AreaDefinition, error: AuthorityErrorData | undefined): AppError {
  const message = error?.message ?? 'Refused.';
  return new AppError('conflict', 'AUTHORITY.CANCELLATION_REFUSED', `The ${area.name} tax authority refused to cancel the document: ${message}`, {
    issues: [issue(error?.path ?? '', error?.code ?? 'AUTHORITY.CANCELLATION_REFUSED', message)],
  });
}

/** A document as GET shows it. */
function view(row: DocumentRow): ReportedDocumentView & { cancellation: unknown; sha256: string | null } {
  return {
    documentId: row.id,
    documentNumber: row.document_number,
    documentType: row.document_type,
    state: row.report_state ?? row.state,
    ruleSetId: row.rule_set_id,
    authority: row.authority?.receipt ?? null,
    error: row.authority?.error ?? null,
    cancellation: row.authority?.cancellationReason ? { reason: row.authority.cancellationReason, error: row.authority.cancellationError ?? null } : null,
    sha256: row.rendered?.sha256 ?? null,
    peppol: row.delivery_status
      ? { deliveryStatus: row.delivery_status, ...(row.delivery_status === 'Failed' && row.delivery?.failure ? { failure: { code: row.delivery.failure.code, message: row.delivery.failure.message } } : {}) }
      : null,
    fields: row.fields,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
