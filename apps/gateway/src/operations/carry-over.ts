import { AppError, type AuthorityReportCommand, type Logger, WrongExpectedVersionError, authorityReportDecider, authorityReportStreamId } from '@einvoice/domain';
import { EventStore, type EventRegistry, eventStoreOptions, handleCommand } from '@einvoice/domain/infrastructure';
import type { AreaDefinition, CarriedReport, ReportCarryOver } from '@einvoice/areas';
import type { DataSource } from 'typeorm';

/** What one carry-over did. */
export interface CarryOverResult {
  readonly name: string;
  /** Reports written now. */
  readonly carried: number;
  /** Reports whose stream was there already (a run cut short before it was recorded as done). */
  readonly skipped: number;
}

/**
 * Carries the documents of the areas' models before the reporting pipeline onto it (area registry
 * `authority.carryOvers`), each carry-over once per stack (`report_carry_overs`), after the schema
 * migrations (`cli migrate`). A report is written whole in one transaction: its request, then its
 * history as commands, decided by the report's own decider as the workers' answers are. Only the
 * carry-over's `publish` types reach Kafka: the rest happened before, and its webhooks were sent then.
 */
export async function runReportCarryOvers(
  dataSource: DataSource,
  areas: readonly AreaDefinition[],
  options: { readonly registry: EventRegistry; readonly kafkaPrefix: string; readonly log: Logger },
): Promise<CarryOverResult[]> {
  const done = new Set(((await dataSource.query(`SELECT name FROM report_carry_overs`)) as Array<{ name: string }>).map((r) => r.name));
  const results: CarryOverResult[] = [];
  for (const carryOver of areas.flatMap((area) => area.authority?.carryOvers ?? [])) {
    if (done.has(carryOver.name)) continue;
    results.push(await carryOnce(dataSource, carryOver, options));
  }
  return results;
}

async function carryOnce(
  dataSource: DataSource,
  carryOver: ReportCarryOver,
  { registry, kafkaPrefix, log }: { readonly registry: EventRegistry; readonly kafkaPrefix: string; readonly log: Logger },
): Promise<CarryOverResult> {
  const publish = new Set(carryOver.publish);
  const store = new EventStore(dataSource, { ...eventStoreOptions(registry, kafkaPrefix), published: (event: { type: string }) => publish.has(event.type) });
  let carried = 0;
  let skipped = 0;
  for await (const page of carryOver.reports((sql, params) => dataSource.query(sql, params), new Date())) {
    for (const report of page) {
      if (await carryReport(store, carryOver.name, report, log)) carried += 1;
      else skipped += 1;
    }
  }
  await dataSource.query(`INSERT INTO report_carry_overs (name, reports) VALUES ($1, $2)`, [carryOver.name, carried]);
  log('info', 'documents carried onto the reporting pipeline', { name: carryOver.name, carried, skipped });
  return { name: carryOver.name, carried, skipped };
}

/** Writes one report; false when its stream exists already. */
async function carryReport(store: EventStore, name: string, { request, commands }: CarriedReport, log: Logger): Promise<boolean> {
  const streamId = authorityReportStreamId(request.reportId);
  const metadata = { tenantId: request.tenantId, ruleSetId: request.ruleSetId, correlationId: `carry-over:${name}` };
  try {
    await store.transaction(async (uow) => {
      await handleCommand(uow, authorityReportDecider, streamId, { type: 'RequestAuthorityReport', data: request }, metadata, { newStream: true });
      for (const command of commands) {
        try {
          await handleCommand(uow, authorityReportDecider, streamId, command, metadata);
        } catch (error) {
          // A step the report's rules refuse after the ones before (history the earlier model let
          // through): left out, said in the log; the report keeps what it had.
          if (!refusedByDecider(error)) throw error;
          log('warn', 'a carried step was refused; left out', { name, reportId: request.reportId, command: (command as AuthorityReportCommand).type, code: (error as AppError).code });
        }
      }
    });
    return true;
  } catch (error) {
    if (error instanceof WrongExpectedVersionError || (error instanceof AppError && error.code === 'AUTHORITY.REPORT_EXISTS')) return false;
    throw error;
  }
}

function refusedByDecider(error: unknown): boolean {
  return error instanceof AppError && error.kind === 'conflict' && !(error instanceof WrongExpectedVersionError);
}
