import Ajv2020 from 'ajv/dist/2020';
import { type AccountEventRow, ACCOUNT_EVENT_TYPES, accountEventOf } from './events';
import { accountEventComponentSchemas, accountEventJsonSchema, accountEventSchemaName } from './event-schemas';
import { sampleAccountEvent, sampleAccountEventRow } from './event-samples';

/** The two formats the schemas use, checked (ajv-formats is not a dependency of ours). */
const addFormats = (ajv: Ajv2020) => ajv
  .addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
  .addFormat('date-time', (value: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value)));
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
const validatorOf = (type: (typeof ACCOUNT_EVENT_TYPES)[number]) => ajv.getSchema(accountEventJsonSchema(type).$id as string) ?? ajv.compile(accountEventJsonSchema(type));
const errorsOf = (event: { type: string }) => {
  const validate = validatorOf(event.type as (typeof ACCOUNT_EVENT_TYPES)[number]);
  return validate(event) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
};

/** A row of a real step, changed where the case says. */
const rowOf = (type: (typeof ACCOUNT_EVENT_TYPES)[number], change: Partial<AccountEventRow>): AccountEventRow => ({ ...sampleAccountEventRow(type), ...change });

describe('the account events\' JSON Schemas', () => {
  it.each(ACCOUNT_EVENT_TYPES)('%s: its sample event is valid against its schema', (type) => {
    expect(errorsOf(sampleAccountEvent(type))).toEqual([]);
    expect(sampleAccountEvent(type).type).toBe(type);
  });

  it('a sample for a test send takes its own id and time', () => {
    const event = sampleAccountEvent('document.reported', { id: '11111111-2222-4333-8444-555555555555', created_at: '2026-12-02T08:00:00.000Z' });
    expect(event).toMatchObject({ id: '11111111-2222-4333-8444-555555555555', created_at: '2026-12-02T08:00:00.000Z', data: { authority: { reference: '5260250274-20261125-0100A0B0C0D0-E1' } } });
    expect(errorsOf(event)).toEqual([]);
  });

  it('an event of one type is not valid as another (the schemas tell the types apart)', () => {
    expect(errorsOf({ ...sampleAccountEvent('document.delivered'), type: 'document.reported' })).not.toEqual([]);
  });

  const representative: Array<[string, AccountEventRow, Record<string, unknown>]> = [
    ['a Peppol delivery handed to a receiver hosted here (no MLS)', rowOf('document.delivered', { delivery: { channel: 'local', messageId: 'm@einvoice', receiverParticipantId: '0208:1', receivedDocumentId: 'f0e1d2c3-b4a5-4968-8778-695a4b3c2d1e' } }),
      { status: 'delivered', exchange: { status: 'delivered' } }],
    ['a dead-lettered delivery (no MLS)', rowOf('document.delivery_failed', { delivery: { failure: { code: 'PEPPOL.TIMEOUT', message: 'No answer after 8 attempts.' }, mls: null, attempts: 8, receiverParticipantId: null } }),
      { status: 'failed', exchange: { status: 'failed', reason: { code: 'PEPPOL.TIMEOUT', message: 'No answer after 8 attempts.' } } }],
    ['an unknown receiver', rowOf('document.delivery_failed', { delivery: { failure: { code: 'PEPPOL.RECEIVER_NOT_FOUND', message: 'Not in the SML.' }, mls: null, receiverParticipantId: '0208:0' } }),
      { status: 'failed', exchange: { status: 'failed', reason: { code: 'PEPPOL.RECEIVER_NOT_FOUND', message: 'Not in the SML.' } } }],
    ['a refusal without details (one code)', rowOf('document.report_failed', { area: 'ng', report_state: 'invalid', authority: { error: { code: 'FIRS.INVALID', message: 'IRN validation failed.' }, invalidatedAt: '2026-11-25T10:30:02.000Z' } }),
      { status: 'refused', authority: { status: 'refused', codes: [{ code: 'FIRS.INVALID', message: 'IRN validation failed.' }] } }],
    ['a refusal with no error recorded', rowOf('document.report_failed', { authority: null }),
      { status: 'refused', authority: { status: 'refused', codes: [] } }],
    ['a reported document whose Peppol copy is pending', rowOf('document.reported', { peppol_copy: true }),
      { status: 'reported', authority: { status: 'reported' }, exchange: { status: 'pending' } }],
    ['a reported document without its number yet (FTA reference)', rowOf('document.reported', { area: 'ae', authority: { receipt: { reference: 'FTA-2026-000118' } } }),
      { status: 'reported', authority: { status: 'reported', reference: 'FTA-2026-000118' } }],
    ['a report accepted (pending) document of a reporting area', rowOf('document.accepted', { area: 'pl', report_state: 'pending', delivery_status: null, peppol_copy: false }),
      { status: 'accepted', authority: { status: 'pending' } }],
    ['a UAE document with both tracks, delivered while its report is pending', rowOf('document.delivered', { area: 'ae', report_state: 'pending' }),
      { status: 'accepted', authority: { status: 'pending' }, exchange: { status: 'delivered' } }],
    ['a received document', rowOf('document.received', {}), { status: 'received', exchange: { status: 'received' } }],
  ];

  it.each(representative)('accountEventOf: %s is valid against its type\'s schema', (_name, row, data) => {
    const event = accountEventOf(row);
    expect(event.data).toMatchObject(data);
    expect(errorsOf(event)).toEqual([]);
  });

  it('a refusal lists each of the authority\'s codes with its field', () => {
    expect(sampleAccountEvent('document.report_failed').data.authority?.codes).toEqual([
      { code: 'E0023', message: 'The seller tax number is not registered.', path: 'AccountingSupplierParty.PartyTaxScheme.CompanyID' },
      { code: 'E0105', message: 'The invoice total does not equal the sum of its lines.', path: 'LegalMonetaryTotal.PayableAmount' },
    ]);
  });

  it('the OpenAPI components: one schema per type and AccountEvent, a oneOf of them', () => {
    const components = accountEventComponentSchemas();
    expect(accountEventSchemaName('document.delivery_failed')).toBe('DocumentDeliveryFailedEvent');
    expect(Object.keys(components).sort()).toEqual(['AccountEvent', ...ACCOUNT_EVENT_TYPES.map(accountEventSchemaName)].sort());
    const document = { $id: 'components', $defs: components };
    const local = new Ajv2020({ strict: false });
    addFormats(local);
    local.addSchema(JSON.parse(JSON.stringify(document).replaceAll('#/components/schemas/', 'components#/$defs/')));
    const validate = local.getSchema('components#/$defs/AccountEvent')!;
    for (const type of ACCOUNT_EVENT_TYPES) expect(validate(sampleAccountEvent(type))).toBe(true);
    expect(validate({ ...sampleAccountEvent('document.accepted'), type: 'document.unknown' })).toBe(false);
  });
});
