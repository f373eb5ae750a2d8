/**
 * Peppol Reporting (#46): a month's TSR and EUSR from `peppol_transmissions`, previewed, or sent to the
 * receiver OpenPeppol names as Peppol documents through the one delivery path (`DocumentSubmitted`, taken
 * by the delivery worker like every document): once per month and report, again only when asked
 * (`cli peppol-reports list | preview <YYYY-MM> | send <YYYY-MM> [--resend]`). The building is pure
 * (libs/areas/src/peppol-reporting); here are the reads, the settings and the append.
 */
import { AppError, type DocumentSubmittedData, WrongExpectedVersionError, deterministicUuid, documentDecider, documentStreamId } from '@einvoice/domain';
import { type EventStore, handleCommand } from '@einvoice/domain/infrastructure';
import { peppolReporting } from '@einvoice/areas';

type Query = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

/** The service provider's reporting settings (README "Peppol Reporting"). */
export interface PeppolReportingSettings {
  /** `PEPPOL_SEAT_ID`: the subject CN of this access point's Peppol AP certificate (`PBE000123`), the reports' ReporterID. */
  readonly seatId: string;
  /** `PEPPOL_REPORTING_SENDER`: the participant id the service provider sends its reports as (C1). */
  readonly senderParticipantId: string;
  /** `PEPPOL_REPORTING_RECEIVER`: where OpenPeppol receives reports; default its participant id `9925:be0848934496`. */
  readonly receiverParticipantId: string;
  /** `PEPPOL_REPORTING_COUNTRY`: the service provider's country (its reports' COUNTRY_C1); default the seat id's country letters. */
  readonly countryC1: string;
}

/** OpenPeppol AISBL's participant id, where reports are received (phax/peppol-reporting CPeppolReporting.OPENPEPPOL_PARTICIPANT_ID). */
export const OPENPEPPOL_REPORTING_RECEIVER = '9925:be0848934496';

const PARTICIPANT_SCHEME = 'iso6523-actorid-upis';
const participantId = (id: string) => (id.includes('::') ? id : `${PARTICIPANT_SCHEME}::${id}`).toLowerCase();

/** `PEPPOL_SEAT_ID`, which both reports name as their ReporterID; throws when it is not a seat id. */
export function seatIdFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  const seatId = env.PEPPOL_SEAT_ID?.trim() ?? '';
  if (!peppolReporting.SEAT_ID.test(seatId)) {
    throw new Error(`PEPPOL_SEAT_ID must be this access point's Peppol seat id, the subject CN of its AP certificate (P, two letters, six digits, e.g. PBE000123); got "${seatId}".`);
  }
  return seatId;
}

/** The settings from the environment; throws naming the setting that is missing or malformed. */
export function reportingSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): PeppolReportingSettings {
  const seatId = seatIdFromEnv(env);
  const sender = env.PEPPOL_REPORTING_SENDER?.trim();
  if (!sender) throw new Error('PEPPOL_REPORTING_SENDER must name the participant id the reports are sent as (the service provider\'s own, e.g. 0208:0123456749).');
  const countryC1 = (env.PEPPOL_REPORTING_COUNTRY?.trim() || seatId.slice(1, 3)).toUpperCase();
  if (!/^[A-Z]{2}$/.test(countryC1)) throw new Error(`PEPPOL_REPORTING_COUNTRY must be an ISO 3166-1 alpha-2 country code; got "${countryC1}".`);
  return {
    seatId,
    senderParticipantId: participantId(sender),
    receiverParticipantId: participantId(env.PEPPOL_REPORTING_RECEIVER?.trim() || OPENPEPPOL_REPORTING_RECEIVER),
    countryC1,
  };
}

/** The month `YYYY-MM` as a period; throws on anything else. */
export function periodOf(month: string | undefined): peppolReporting.ReportingPeriod {
  const period = month ? peppolReporting.reportingPeriod(month) : undefined;
  if (!period) throw new Error(`usage: a month as YYYY-MM (e.g. ${peppolReporting.previousMonth(new Date())}); got "${month ?? ''}"`);
  return period;
}

/** The month's recorded exchanges, as the reports read them. */
export async function monthTransmissions(query: Query, period: peppolReporting.ReportingPeriod): Promise<peppolReporting.ReportedTransmission[]> {
  const rows = await query<{
    direction: 'outgoing' | 'incoming'; document_type_id: string; process_id: string; transport_profile: string | null; other_access_point: string | null;
    country_c1: string; country_c4: string | null; end_user: string;
  }>(
    // An exchange whose end user was not found (no documents row) counts by its participant id.
    `SELECT direction, document_type_id, process_id, transport_profile, other_access_point, country_c1, country_c4,
            coalesce(end_user_id::text, CASE direction WHEN 'outgoing' THEN sender_participant_id ELSE receiver_participant_id END) AS end_user
     FROM peppol_transmissions WHERE exchanged_at >= $1 AND exchanged_at < $2`,
    [period.from, period.until],
  );
  return rows.map((r) => ({
    direction: r.direction,
    documentTypeId: r.document_type_id,
    processId: r.process_id,
    transportProfile: r.transport_profile ?? undefined,
    otherAccessPoint: r.other_access_point ?? undefined,
    countryC1: r.country_c1,
    countryC4: r.country_c4 ?? undefined,
    endUserId: r.end_user,
  }));
}

/** Both reports of a month, built from what is recorded now. */
export async function previewReports(query: Query, month: string, settings: Pick<PeppolReportingSettings, 'seatId'>): Promise<peppolReporting.MonthlyReports> {
  const period = periodOf(month);
  return peppolReporting.buildMonthlyReports({ period, reporterSeatId: settings.seatId }, await monthTransmissions(query, period));
}

/**
 * The report documents: no tenant's and no supplier's (the nil uuid, which no tenant has: no API read
 * shows them), area `peppol-reporting`, numbered `TSR-2026-01` (`-2`, `-3`… when resent).
 */
const SERVICE_PROVIDER = '00000000-0000-0000-0000-000000000000';
const AREA = 'peppol-reporting';
const ROOTS: Record<peppolReporting.ReportKind, string> = { tsr: 'TransactionStatisticsReport', eusr: 'EndUserStatisticsReport' };

/** One report document sent (or on its way), as `list` shows it. */
export interface SentReport {
  readonly month: string;
  readonly kind: peppolReporting.ReportKind;
  readonly attempt: number;
  readonly documentId: string;
  readonly documentNumber: string;
  /** The delivery's state: Scheduled, Delivered, Failed. */
  readonly deliveryStatus: string | null;
  readonly submittedAt: string;
}

async function sentReports(query: Query, month?: string): Promise<SentReport[]> {
  const rows = await query<{ id: string; document_number: string; delivery_status: string | null; created_at: Date; fields: { month: string; kind: peppolReporting.ReportKind; attempt: number } }>(
    `SELECT id, document_number, delivery_status, created_at, fields FROM documents
     WHERE area = $1 AND tenant_id = $2 AND ($3::text IS NULL OR fields->>'month' = $3) ORDER BY created_at, document_number`,
    [AREA, SERVICE_PROVIDER, month ?? null],
  );
  return rows.map((r) => ({
    month: r.fields.month,
    kind: r.fields.kind,
    attempt: r.fields.attempt,
    documentId: r.id,
    documentNumber: r.document_number,
    deliveryStatus: r.delivery_status,
    submittedAt: r.created_at.toISOString(),
  }));
}

/** Per month with exchanges or reports: how many exchanges were recorded, how many count, and the reports sent. */
export async function listReports(query: Query): Promise<Array<{ month: string; outgoing: number; incoming: number; counted: number; reports: SentReport[] }>> {
  const months = await query<{ month: string; outgoing: number; incoming: number }>(
    `SELECT to_char(exchanged_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month,
            count(*) FILTER (WHERE direction = 'outgoing')::int AS outgoing, count(*) FILTER (WHERE direction = 'incoming')::int AS incoming
     FROM peppol_transmissions GROUP BY 1 ORDER BY 1`,
  );
  const reports = await sentReports(query);
  const all = [...new Set([...months.map((m) => m.month), ...reports.map((r) => r.month)])].sort();
  const result = [];
  for (const month of all) {
    const recorded = months.find((m) => m.month === month);
    const counted = (await monthTransmissions(query, periodOf(month))).filter(peppolReporting.counted).length;
    result.push({ month, outgoing: recorded?.outgoing ?? 0, incoming: recorded?.incoming ?? 0, counted, reports: reports.filter((r) => r.month === month) });
  }
  return result;
}

/**
 * Sends a month's TSR and EUSR: each a `DocumentSubmitted` from the service provider to OpenPeppol's
 * receiver, delivered by the delivery worker as any Peppol document. Once per month and report: a report
 * sent already is not sent again (`skipped`) unless `resend`, which sends it anew under the next number
 * (OpenPeppol processes the latest one received: TSR 1.0.2 and EUSR 1.1.1 §2 "Data Transmission"). The
 * stream id is derived from month, report and attempt, so two concurrent sends append one of them.
 */
export async function sendReports(
  store: EventStore,
  month: string,
  settings: PeppolReportingSettings,
  options: { readonly resend?: boolean; readonly now?: Date } = {},
): Promise<Array<{ kind: peppolReporting.ReportKind; sent?: SentReport; skipped?: SentReport }>> {
  const query: Query = (sql, params) => store.dataSource.query(sql, params);
  const reports = await previewReports(query, month, settings);
  const earlier = await sentReports(query, month);
  const submittedAt = (options.now ?? new Date()).toISOString();
  const results = [];
  for (const kind of peppolReporting.REPORT_KINDS) {
    const before = earlier.filter((r) => r.kind === kind);
    const last = before[before.length - 1];
    if (last && !options.resend) {
      results.push({ kind, skipped: last });
      continue;
    }
    const attempt = (last?.attempt ?? 0) + 1;
    const documentId = deterministicUuid(`peppol-report:${kind}:${month}:${attempt}`);
    const documentNumber = `${kind.toUpperCase()}-${month}${attempt > 1 ? `-${attempt}` : ''}`;
    const data: DocumentSubmittedData = {
      documentId,
      tenantId: SERVICE_PROVIDER,
      supplierId: SERVICE_PROVIDER,
      area: AREA,
      documentNumber,
      documentType: ROOTS[kind],
      transportMode: 'peppol',
      senderParticipantId: settings.senderParticipantId,
      receiverParticipantId: settings.receiverParticipantId,
      countryC1: settings.countryC1,
      fields: { month, kind, attempt },
      xml: reports[kind].xml,
      submittedAt,
    };
    try {
      await store.transaction((uow) => handleCommand(uow, documentDecider, documentStreamId(documentId), { type: 'SubmitDocument', data }, { tenantId: SERVICE_PROVIDER }, { newStream: true }));
    } catch (error) {
      // Another send of the same month, report and attempt appended it first: it is sent, once.
      if (!(error instanceof WrongExpectedVersionError) && !(error instanceof AppError && error.code === 'DOCUMENT.ALREADY_EXISTS')) throw error;
    }
    results.push({ kind, sent: { month, kind, attempt, documentId, documentNumber, deliveryStatus: 'Scheduled', submittedAt } });
  }
  return results;
}
