// A reported document's Peppol copy (`peppolCopy`: Poland's and Malaysia's `transport_mode: peppol`) in
// the generic pipeline (#8) on real PostgreSQL, with the toy area's sandbox authority: released once,
// with the authority's acceptance for good; withheld when the supplier already sent that number over
// Peppol (a cancelled document's number is free at the authority, not on Peppol).
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { type AuthorityReportRequestedData, type RecordedEvent, authorityReportDecider, authorityReportStreamId, createLogger, documentStreamId } from '@einvoice/domain';
import { type EventStore, handleCommand } from '@einvoice/domain/infrastructure';
import { ToySandboxAuthority } from '../../libs/areas/src/toy';
import { createCancellationHandler } from '../../apps/reporting-worker/src/authority/cancel-report';
import { pollReport } from '../../apps/reporting-worker/src/authority/poll-report';
import { type AuthorityReportingDependencies, createAuthorityReportHandler } from '../../apps/reporting-worker/src/authority/report-to-authority';
import { openTestDatabase } from '../support/database';
import { workerContext as context } from '../support/myinvois-worker';
import { appendReportRequest, toyReportRequest } from '../support/toy-reports';

describe('#8 a reported document\'s Peppol copy (toy sandbox, real PostgreSQL)', () => {
  const run = Date.now().toString(36);
  let dataSource: DataSource;
  let store: EventStore;
  let deps: AuthorityReportingDependencies;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
    const toy = new ToySandboxAuthority((sql, params) => dataSource.query(sql, params));
    // Polls due at once: the test asks when it wants.
    deps = { store, connectors: new Map([['toy', toy]]), pollPolicies: new Map([['toy', { intervalMs: 0, maxPolls: 10 }]]), groupId: `peppol-copy-int-${run}`, log: createLogger('test', 'error') };
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  /** A supplier: its id, and a toy tax id per report (the toy authority refuses a number it holds for a tax id, even cancelled). */
  const supplier = () => ({ supplierId: randomUUID(), tenantId: randomUUID() });

  /** Appends a report of `number` with its Peppol copy (as the gateway does) and hands it to the worker. */
  async function reportWithCopy(who: { supplierId: string; tenantId: string }, number: string): Promise<RecordedEvent> {
    const event = await appendReportRequest(store, toyReportRequest(number, {
      ...who,
      peppolCopy: { documentType: 'invoice', senderParticipantId: 'iso6523-actorid-upis::0088:toy-seller', receiverParticipantId: 'iso6523-actorid-upis::0088:toy-buyer', xml: `<Invoice>${number}</Invoice>` },
    }));
    await createAuthorityReportHandler(deps)(event, context);
    return event;
  }

  const dataOf = (event: RecordedEvent) => event.data as AuthorityReportRequestedData;
  const copiesOf = async (event: RecordedEvent) => (await store.readStream(documentStreamId(dataOf(event).documentId))).filter((e) => e.type === 'DocumentSubmitted');
  const reportTypes = async (event: RecordedEvent) => (await store.readStream(authorityReportStreamId(dataOf(event).reportId))).map((e) => e.type);
  const rowOf = async (event: RecordedEvent) =>
    (await dataSource.query(`SELECT report_state, delivery_status, authority FROM documents WHERE id = $1`, [dataOf(event).documentId]))[0];

  /** Cancels the report at the toy authority, as the issuer's cancellation does. */
  async function cancel(event: RecordedEvent): Promise<void> {
    const data = { reportId: dataOf(event).reportId, reason: 'Wrong buyer', requestedAt: new Date().toISOString() };
    const [requested] = await store.transaction((uow) =>
      handleCommand(uow, authorityReportDecider, authorityReportStreamId(data.reportId), { type: 'RequestReportCancellation', data }, { tenantId: randomUUID() }),
    );
    await createCancellationHandler(deps)(requested, context);
  }

  it('the copy leaves with the acceptance for good, once', async () => {
    const event = await reportWithCopy(supplier(), `PC-${run}`);
    await createAuthorityReportHandler(deps)(event, context);
    const copies = await copiesOf(event);
    expect(copies).toHaveLength(1);
    expect(copies[0].data).toMatchObject({ documentNumber: `PC-${run}`, transportMode: 'peppol', xml: `<Invoice>PC-${run}</Invoice>` });
    expect(await rowOf(event)).toMatchObject({ report_state: 'reported', delivery_status: 'Scheduled' });
  });

  it('a number the supplier already sent over Peppol (its document since cancelled): accepted, the copy withheld with the reason', async () => {
    const who = supplier();
    const number = `PW-${run}`;
    const first = await reportWithCopy(who, number);
    expect(await copiesOf(first)).toHaveLength(1);
    await cancel(first);
    expect((await rowOf(first)).report_state).toBe('cancelled');

    const again = await reportWithCopy(who, number);
    expect(await copiesOf(again)).toHaveLength(0);
    expect((await reportTypes(again)).slice(-2)).toEqual(['AuthorityReportAccepted', 'AuthorityReportPeppolCopyWithheld']);
    expect(await rowOf(again)).toMatchObject({
      report_state: 'reported',
      delivery_status: null,
      authority: {
        peppolWithheld: {
          code: 'PEPPOL.WITHHELD_ID_ALREADY_SENT',
          message: `A document with ID ${number} of this supplier already went over Peppol (Peppol document IDs are unique per supplier); this copy is not sent.`,
        },
      },
    });
    // Another supplier's document with that number is no reason to withhold.
    expect(await copiesOf(await reportWithCopy(supplier(), number))).toHaveLength(1);
  });

  it('withheld at the validation too, where the authority accepts for good only after polls', async () => {
    const who = supplier();
    // SLOW- numbers: taken for processing, valid at the third poll (libs/areas/src/toy/README.md).
    const number = `SLOW-PW-${run}`;
    const first = await reportWithCopy(who, number);
    for (let n = 0; n < 3; n += 1) await pollReport(deps, dataOf(first).reportId, randomUUID(), context);
    expect(await copiesOf(first)).toHaveLength(1);
    await cancel(first);

    const again = await reportWithCopy(who, number);
    expect(await copiesOf(again)).toHaveLength(0);
    for (let n = 0; n < 3; n += 1) await pollReport(deps, dataOf(again).reportId, randomUUID(), context);
    expect(await copiesOf(again)).toHaveLength(0);
    expect((await reportTypes(again)).slice(-2)).toEqual(['AuthorityReportValidated', 'AuthorityReportPeppolCopyWithheld']);
    expect((await rowOf(again)).authority.peppolWithheld.code).toBe('PEPPOL.WITHHELD_ID_ALREADY_SENT');
  });
});
