// Reports of the test-only toy area (libs/areas/src/toy) for integration tests: the requested data, and its append as the gateway does.
import { randomUUID } from 'node:crypto';
import { type AuthorityReportRequestedData, type RecordedEvent, authorityReportDecider, authorityReportStreamId } from '@einvoice/domain';
import { type EventStore, handleCommand } from '@einvoice/domain/infrastructure';

/**
 * A toy report of document `number` with fresh ids; `taxId` (the toy authority's issuer; fresh unless
 * given) goes in its payload, the other `overrides` (area, supplierId, tenantId, batchKey...) over the rest.
 */
export function toyReportRequest(
  number: string,
  { taxId = `TOY${randomUUID().slice(0, 8)}`, ...overrides }: Partial<AuthorityReportRequestedData> & { taxId?: string } = {},
): AuthorityReportRequestedData {
  return {
    reportId: randomUUID(),
    documentId: randomUUID(),
    tenantId: randomUUID(),
    supplierId: randomUUID(),
    area: 'toy',
    ruleSetId: 'toy:invoice:1.0',
    documentNumber: number,
    documentType: 'invoice',
    fields: { ID: number },
    document: { bytes: '{}', mediaType: 'application/json', sha256: '44136fa3' },
    payload: { taxId, number },
    requestedAt: new Date().toISOString(),
    ...overrides,
  };
}

/** Appends the report `data` (any area's) as the gateway does, and returns its recorded AuthorityReportRequested. */
export async function appendReportRequest(store: EventStore, data: AuthorityReportRequestedData): Promise<RecordedEvent> {
  const [event] = await store.transaction((uow) =>
    handleCommand(uow, authorityReportDecider, authorityReportStreamId(data.reportId), { type: 'RequestAuthorityReport', data }, { tenantId: data.tenantId }),
  );
  return event;
}
