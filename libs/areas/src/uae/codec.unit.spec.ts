import { AppError } from '@einvoice/domain';
import { uaeDocuments, uaeExchange, uaeNumberParts, uaeOnboarding, uaeValidAnswer } from './codec';
import { invoice, issuer } from './fixtures/bodies';
import selfBilled from './fixtures/selfbilling-inv-self-billing.json';
import type { UaeIssuer } from './render';

/** The participant `issuer` onboarded as (`financial_year_start` 04-01). */
const profileOf = (i: UaeIssuer) =>
  uaeOnboarding.parse({
    peppol_id: i.peppolId,
    legal_name: i.legalName,
    trn: i.trn,
    legal_id: i.legalId,
    street_address: i.streetAddress,
    city: i.city,
    emirates_code: i.emiratesCode,
    country_code: 'AE',
    financial_year_start: '04-01',
  });
const profile = profileOf(issuer);
const documentId = 'b7f74c42-5e5a-4b9d-8f00-000000000001';
const parse = (body: unknown, variant?: string) => uaeDocuments.parse(body, profile, variant, documentId);
const refusal = (body: unknown, variant?: string): AppError => {
  try {
    parse(body, variant);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('parsed');
};

describe('#45 the UAE codec on the pipeline', () => {
  it('given a participant body, when onboarded, then its one Peppol participant is its 0235 id and the 201 names it', () => {
    expect(uaeExchange.participantIds(profile)).toEqual(['iso6523-actorid-upis::0235:1234567890']);
    expect(uaeOnboarding.respond?.('p-1', profile)).toEqual({ status: 'success', data: { participant_id: 'p-1', peppol_id: '0235:1234567890' } });
  });

  it('given a valid invoice, when parsed, then numbered in its financial year, rendered with the document id, reported as C2, sent to its receiver', () => {
    const parsed = parse(invoice({ issue_date: '2026-03-31' }));
    // The participant's year starts on 04-01: 2026-03-31 belongs to 2025.
    expect(parsed.number).toBe('2025:INV-2026-0001');
    expect(uaeNumberParts(parsed.number)).toEqual({ financialYear: 2025, identifier: 'INV-2026-0001' });
    expect(parsed.ruleSetId).toBe('pint-ae:billing:2026.5');
    expect(parsed.payload).toEqual({ reporterRole: 'C2', participantId: 'iso6523-actorid-upis::0235:1234567890' });
    expect(parsed.rendered?.bytes).toContain(`<cbc:UUID>${documentId}</cbc:UUID>`);
    const envelope = uaeExchange.envelope(parsed, profile, documentId, parsed.rendered);
    expect(envelope).toEqual({ xml: parsed.rendered?.bytes, receiverParticipantId: 'iso6523-actorid-upis::0235:1345678901' });
  });

  it('#47 given an invoice stating no payable amount, when parsed, then its total is the one its UBL states, and its fields stay as sent', () => {
    const body = invoice();
    const parsed = parse(body);
    const payable = /<cbc:PayableAmount currencyID="AED">([^<]+)</.exec(parsed.rendered?.bytes ?? '')?.[1];
    expect(payable).toMatch(/^\d+\.\d{2}$/);
    expect(parsed.total).toBe(payable);
    expect(parsed.fields).not.toHaveProperty('invoice_totals');
    // Stated, it stays in the fields as sent (the GET body) and is the total too.
    const stated = parse(invoice({ invoice_totals: { payable_amount: payable } }));
    expect([stated.fields.invoice_totals, stated.total]).toEqual([{ payable_amount: payable }, payable]);
  });

  it('given a self-billed invoice (the official example), when parsed, then its own rule set is the self-billing one', () => {
    const parsed = uaeDocuments.parse(selfBilled.request, profileOf(selfBilled.issuer as UaeIssuer), undefined, documentId);
    expect([parsed.type, parsed.ruleSetId]).toEqual(['389', 'pint-ae:selfbilling:2026.5']);
  });

  it('given an embedded attachment, when parsed, then the UBL carries it detached and the attachment travels beside it, once', () => {
    const content = Buffer.from('timesheet').toString('base64');
    const parsed = parse(invoice({ document_references: [{ document_identifier: 'TS-1', embedded_document: { mime_code: 'application/pdf', filename: 'ts.pdf', content } }] }));
    expect(parsed.rendered?.bytes).not.toContain(content);
    expect(parsed.rendered?.attachments?.map((a) => [a.index, a.filename, a.bytes.toString()])).toEqual([[1, 'ts.pdf', 'timesheet']]);
  });

  it('given a broken body, then phase 1 answers alone; given a broken rule, then phase 2', () => {
    expect(refusal(invoice({ lines: [] })).code).toBe('DOCUMENT.SCHEMA');
    const rules = refusal(invoice({ flags: { is_selfbilled: true } }));
    expect([rules.code, rules.message, rules.issues.map((i) => [i.path, i.code])]).toEqual(['DOCUMENT.RULES', 'Document is invalid', [['Document', 'ibr-cl-01']]]);
  });

  it('given the Unified API body, then its country is checked first, and the document is the same', () => {
    expect(refusal(invoice({ country: 'SA' }), 'unified').issues.map((i) => i.path)).toEqual(['country']);
    expect(parse(invoice({ country: 'AE' }), 'unified').number).toBe('2026:INV-2026-0001');
  });

  it('given the 202 and the validate answer, then both name the caller\'s document_identifier, not the year', () => {
    expect(uaeDocuments.respond?.({ documentId, number: '2026:INV:7' })).toEqual({
      statusCode: 202,
      body: { status: 'success', data: { document_id: documentId, document_identifier: 'INV:7', status: 'accepted', reporting: { status: 'queued' }, exchange: { status: 'processing' } } },
    });
    expect(uaeValidAnswer(parse(invoice())).body).toEqual({ status: 'success', message: 'Document is valid.', data: { document_identifier: 'INV-2026-0001' } });
  });
});

describe('#47 a UAE participant\'s change (onboarding.revise)', () => {
  const revise = uaeOnboarding.revise!;

  it('given a new address, then the profile has it and keeps its TIN, TRN and financial year', () => {
    const revised = revise.apply(profile, { street_address: 'Sheikh Zayed Road 1', emirates_code: 'DXB' });
    expect(revised).toMatchObject({ street: 'Sheikh Zayed Road 1', county: 'DXB', identifiers: profile.identifiers });
    expect(revised.areaDetails).toEqual({ ...profile.areaDetails, emiratesCode: 'DXB' });
  });

  it('refuses what PINT AE\'s onboarding refuses, at the field', () => {
    expect(() => revise.apply(profile, { emirates_code: 'XX' })).toThrow(expect.objectContaining({ issues: [expect.objectContaining({ path: 'emirates_code' })] }));
  });

  it('lets the tax identifiers and the financial year stay as onboarded', () => {
    expect(revise.fields.filter((f) => ['peppol_id', 'trn', 'financial_year_start'].includes(f))).toEqual([]);
  });
});
