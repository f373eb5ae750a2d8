import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  FieldIssue,
  ParticipantCommand,
  WrongExpectedVersionError,
  issue,
  participantDecider,
  participantStreamId,
  validationError,
} from '@einvoice/domain';
import { UnitOfWork, handleCommand } from '@einvoice/domain/infrastructure';
import {
  findReceivableDocumentType,
  receivableDocumentTypesOf,
  kycMethods,
  parseCreateParticipant,
  parseKycCompletion,
  parseParticipantId,
  isParticipantId,
  requireDocumentTypeId,
  toLookupParticipants,
} from '@einvoice/areas';
import { type RequestContext, eventMetadata } from '../http/request-context';
import { recordResponse } from '../idempotency/idempotency';
import { Connections } from '../infrastructure/infrastructure.module';
import { ParticipantsConfig, loadParticipantsConfig } from './participants.config';
import { PARTICIPANT_COLUMNS, ParticipantRow, participantsNotFound, requireParticipantId, toRecord } from './participant-records';
import { waitForSmlStatus } from './sml-wait';
import { lockParticipantId } from './supplier-participants';

/** A status and a body: create-participant and SML answers vary their status (seed 201/202). */
export interface Answer {
  readonly statusCode: number;
  readonly body: unknown;
}

/** Most ids one lookup may ask for. */
const MAX_LOOKUP_IDS = 100;


/** The Peppol participant area (seed 000 "Peppol participant", paths under `/1.0`). */
@Injectable()
export class ParticipantsService {
  readonly config: ParticipantsConfig = loadParticipantsConfig();

  constructor(private readonly connections: Connections) {}

  /** `POST /1.0/participant`: 201 with the participant, or 202 + `method` when the tenant must sign KYC. */
  async create(body: unknown, context: RequestContext): Promise<Answer> {
    const request = parseCreateParticipant(body);
    const pid = request.participantId.id;
    const [tenant] = await this.connections.dataSource.query(`SELECT kyc_required FROM tenants WHERE id = $1`, [context.tenant.id]);
    const kycRequired = tenant?.kyc_required === true;
    return this.connections.store.transaction(async (uow) => {
      // Serialised with a Malaysian onboarding of the same id, which registers it only when free.
      await lockParticipantId(uow, pid);
      await handleCommand(uow, participantDecider, participantStreamId(pid), {
        type: 'RegisterParticipant',
        data: {
          participantId: pid, tenantId: context.tenant.id, source: 'api', businessEntities: request.businessEntities,
          registeredAt: new Date().toISOString(), kycRequired, kycMethods: [...kycMethods],
        },
      }, eventMetadata(context));
      const answer: Answer = kycRequired
        ? { statusCode: 202, body: { status: 'kyc_pending', message: 'KYC signing is required before the participant is created.', method: [...kycMethods], data: { pid } } }
        : { statusCode: 201, body: await this.lookupBody(uow, pid) };
      await recordResponse(uow, context.idempotency, answer.statusCode, answer.body);
      return answer;
    });
  }

  /** `POST /1.0/participant/{pid}/kyc`: the signed PDF completes KYC; 201 with the created participant. */
  async completeKyc(rawPid: string, body: unknown, context: RequestContext): Promise<Answer> {
    const pid = requireParticipantId(rawPid, 'pid').id;
    const document = parseKycCompletion(body, this.config.kycPdfMaxBytes);
    const sha256 = createHash('sha256').update(document.bytes).digest('hex');
    return this.connections.store.transaction(async (uow) => {
      await handleCommand(uow, participantDecider, participantStreamId(pid), {
        type: 'CompleteParticipantKyc',
        data: {
          participantId: pid, tenantId: context.tenant.id, method: document.method, pdfFile: document.fileName, sha256,
          sizeBytes: document.bytes.length, completedAt: new Date().toISOString(),
        },
      }, eventMetadata(context));
      await uow.query(
        `INSERT INTO participant_kyc_documents (participant_id, file_name, content, sha256) VALUES ($1, $2, $3, $4)
         ON CONFLICT (participant_id) DO NOTHING`,
        [pid, document.fileName, document.bytes, sha256],
      );
      const answer: Answer = { statusCode: 201, body: await this.lookupBody(uow, pid) };
      await recordResponse(uow, context.idempotency, answer.statusCode, answer.body);
      return answer;
    });
  }

  /**
   * `GET /1.0/participant/lookup?pid=...[&pid=...]`: the caller's created participants only.
   * One `pid` → `Participants` is an object; several → an array in the order asked. Any bad id
   * is a 400 and any missing one a 404, each naming `pid[i]` (all or nothing, README "Choices").
   */
  async lookup(query: unknown, context: RequestContext): Promise<unknown> {
    const raw = (query as Record<string, unknown> | undefined)?.pid;
    const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
    const multiple = Array.isArray(raw);
    if (list.length === 0) throw validationError([issue('pid', 'FIELD.REQUIRED', 'pid is required: a participant id such as iso6523-actorid-upis::0208:0123456749')]);
    if (list.length > MAX_LOOKUP_IDS) throw validationError([issue('pid', 'FIELD.TOO_MANY', `at most ${MAX_LOOKUP_IDS} pid per lookup`)]);
    const parsed = list.map((value, i) => parseParticipantId(value, multiple ? `pid[${i}]` : 'pid'));
    const issues = parsed.filter((p): p is FieldIssue => !isParticipantId(p));
    if (issues.length > 0) throw validationError(issues, 'A participant identifier is invalid.');
    const ids = parsed.map((p) => (isParticipantId(p) ? p.id : ''));
    const rows: ParticipantRow[] = await this.connections.dataSource.query(
      `SELECT ${PARTICIPANT_COLUMNS} FROM participants WHERE participant_id = ANY($1) AND tenant_id = $2`,
      [ids, context.tenant.id],
    );
    const byId = new Map(rows.map((r) => [r.participant_id, r]));
    const missing = ids
      .map((id, i) => ({ id, path: multiple ? `pid[${i}]` : 'pid', row: byId.get(id) }))
      .filter((m) => m.row?.status !== 'created')
      .map((m) => ({ id: m.id, path: m.path, kycPending: m.row?.status === 'kyc_pending' }));
    if (missing.length > 0) throw participantsNotFound(missing);
    const shaped = ids.map((id) => toLookupParticipants(toRecord(byId.get(id)!), this.config.smp.endpointUrl));
    return { Participants: multiple ? shaped : shaped[0] };
  }

  /** `POST /1.0/sml/activate/{pid}` and `.../deactivate/{pid}`: record the request, wait for the worker's outcome. */
  async sml(action: 'activate' | 'deactivate', rawPid: string, context: RequestContext): Promise<Answer> {
    const pid = requireParticipantId(rawPid, 'pid').id;
    const at = new Date().toISOString();
    const command: ParticipantCommand = action === 'activate'
      ? { type: 'RequestSmlActivation', data: { participantId: pid, tenantId: context.tenant.id, at } }
      : { type: 'RequestSmlDeactivation', data: { participantId: pid, tenantId: context.tenant.id, at } };
    await this.withRetry(() =>
      this.connections.store.transaction((uow) => handleCommand(uow, participantDecider, participantStreamId(pid), command, eventMetadata(context))));
    const done = action === 'activate' ? 'activated' : 'deactivated';
    const reached = await waitForSmlStatus(this.connections.dataSource, pid, done, this.config.smlWaitMs);
    const answer: Answer = reached
      ? { statusCode: 200, body: { status: 'success', data: { pid, status: done } } }
      : { statusCode: 202, body: { status: 'pending', data: { pid, status: action === 'activate' ? 'activation_requested' : 'deactivation_requested' } } };
    // Recorded after the wait, in its own transaction: the SML commands are idempotent, so a
    // crash between the two only makes a retry decide nothing new and answer the state.
    await this.connections.store.transaction((uow) => recordResponse(uow, context.idempotency, answer.statusCode, answer.body));
    return answer;
  }

  /**
   * `GET /1.0/participant/{pid}/capabilities?documentTypeId=...`: "can this participant receive
   * document type X" here. Public network data (what an SMP publishes), so any caller may ask.
   */
  async capabilities(rawPid: string, rawDocumentType: unknown): Promise<unknown> {
    const pid = requireParticipantId(rawPid, 'pid').id;
    const documentTypeId = requireDocumentTypeId(rawDocumentType);
    const rows: ParticipantRow[] = await this.connections.dataSource.query(`SELECT ${PARTICIPANT_COLUMNS} FROM participants WHERE participant_id = $1`, [pid]);
    const row = rows[0];
    const type = findReceivableDocumentType(pid, documentTypeId);
    const [canReceive, reason, message] =
      !row || row.status !== 'created'
        ? [false, 'PARTICIPANT.NOT_HOSTED', 'The participant is not registered with this access point (it may be served by another SMP).']
        : row.sml_status !== 'activated'
          ? [false, 'SML.NOT_PUBLISHED', 'The participant is hosted here but not published in the SML, so senders cannot find it.']
          : !type
            ? [false, 'DOCUMENT_TYPE.NOT_SUPPORTED', `The participant does not receive this document type (it receives: ${receivableDocumentTypesOf(pid).map((t) => t.name).join(', ')}).`]
            : [true, 'SUPPORTED', `The participant receives ${type.name}.`];
    return { status: 'success', data: { pid, documentTypeId, canReceive, reason, message } };
  }

  /** A created participant's row for the SMP interface, or undefined. Public data. */
  async findCreated(pid: string): Promise<ParticipantRow | undefined> {
    const rows: ParticipantRow[] = await this.connections.dataSource.query(
      `SELECT ${PARTICIPANT_COLUMNS} FROM participants WHERE participant_id = $1 AND status = 'created'`, [pid]);
    return rows[0];
  }

  private async lookupBody(uow: UnitOfWork, pid: string): Promise<unknown> {
    const [row] = await uow.query<ParticipantRow>(`SELECT ${PARTICIPANT_COLUMNS} FROM participants WHERE participant_id = $1`, [pid]);
    return { Participants: toLookupParticipants(toRecord(row), this.config.smp.endpointUrl) };
  }

  /** The worker may append to the same stream at the same moment: one re-read and retry settles it. */
  private async withRetry<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError) || attempt >= attempts) throw error;
      }
    }
  }
}
