import { parseUaeDocument, type UaeDocument, type UaeIssue } from './document';
import { invoice, line, receivingParty } from './fixtures/bodies';

const issuesOf = (body: unknown): readonly UaeIssue[] => {
  const r = parseUaeDocument(body);
  return 'issues' in r ? r.issues : [];
};
const documentOf = (body: unknown): UaeDocument => {
  const r = parseUaeDocument(body);
  if ('issues' in r) throw new Error(JSON.stringify(r.issues));
  return r.document;
};
const issue = (path: string, code: string, message: string | RegExp) => expect.objectContaining({ path, code, message: message instanceof RegExp ? expect.stringMatching(message) : message, severity: 'error' });

describe('parseUaeDocument: phase 1 field validation (seed 001 "Errors")', () => {
  it('given a valid document at the root or under `document`, when parsed, then both give the same document', () => {
    expect(documentOf({ document: invoice() })).toEqual(documentOf(invoice()));
  });

  it.each(['document_identifier', 'issue_date', 'document_type', 'document_currency'])(
    'given no %s, when parsed, then invalid_type "Required" at its path', (key) => {
      const body = invoice();
      delete body[key];
      expect(issuesOf(body)).toEqual([issue(key, 'invalid_type', 'Required')]);
    });

  it.each(['legal_name', 'street_address'])('given a receiving party without %s, when parsed, then invalid_type "Required" under receiving_party', (key) => {
    const party: Record<string, unknown> = { ...receivingParty };
    delete party[key];
    expect(issuesOf(invoice({ receiving_party: party }))).toEqual([issue(`receiving_party.${key}`, 'invalid_type', 'Required')]);
  });

  it('given wrong JSON types, when parsed, then zod\'s invalid_type messages at dotted paths, list entries by index (lines[0].unit_price)', () => {
    expect(issuesOf(invoice({ document_identifier: 12, lines: [line({ unit_price: 100 })], contract_value: 5000 }))).toEqual([
      issue('document_identifier', 'invalid_type', 'Expected string, received number'),
      issue('lines[0].unit_price', 'invalid_type', 'Expected string, received number'),
      issue('contract_value', 'invalid_type', 'Expected string, received number'),
    ]);
  });

  it('given a value outside its enum, when parsed, then invalid_enum_value with zod\'s message', () => {
    expect(issuesOf(invoice({ document_type: '388' }))).toEqual([
      issue('document_type', 'invalid_enum_value', "Invalid enum value. Expected '380' | '480' | '381' | '81' | '389' | '261', received '388'"),
    ]);
    expect(issuesOf(invoice({ lines: [line({ tax_category: 'X' })] }))).toEqual([
      issue('lines[0].tax_category', 'invalid_enum_value', "Invalid enum value. Expected 'S' | 'Z' | 'E' | 'O' | 'AE' | 'N', received 'X'"),
    ]);
  });

  it('given a tax row without tax_rate or taxable_amount, when parsed, then invalid_union and invalid_type (seed "Totals")', () => {
    expect(issuesOf(invoice({ tax_totals: [{ tax_category: 'S', tax_percentage: '5', tax_amount: '50.00' }] }))).toEqual([
      issue('tax_totals[0].tax_rate', 'invalid_union', 'Invalid input'),
      issue('tax_totals[0].taxable_amount', 'invalid_type', 'Required'),
    ]);
  });

  it('given payable_amount as a boolean, when parsed, then invalid_union (it takes a decimal string or a number)', () => {
    expect(issuesOf(invoice({ invoice_totals: { payable_amount: true } }))).toEqual([issue('invoice_totals.payable_amount', 'invalid_union', 'Invalid input')]);
  });

  it('given no receiving_party.peppol_id next to a type error elsewhere, when parsed, then both: custom with a written message, and the type error', () => {
    const { peppol_id: _omitted, ...party } = receivingParty;
    expect(issuesOf(invoice({ receiving_party: party, issue_date: 20260701 }))).toEqual([
      issue('issue_date', 'invalid_type', 'Expected string, received number'),
      issue('receiving_party.peppol_id', 'custom', /^receiving_party.peppol_id is required/),
    ]);
  });

  it('given a credit note 381 without reason code and a line without tax category, when parsed, then custom issues for both', () => {
    expect(issuesOf(invoice({ document_type: '381', lines: [line({ tax_category: undefined })] }))).toEqual([
      issue('credit_note_reason_code', 'custom', /^credit_note_reason_code is required on a credit note \(381\)/),
      issue('lines[0].tax_category', 'custom', 'lines[0].tax_category is required: one of S, Z, E, O, AE, N'),
    ]);
  });

  it('given an out-of-scope credit note 81 with a line without tax category, when parsed, then it is accepted (ibr-123-ae)', () => {
    expect(issuesOf(invoice({ document_type: '81', lines: [line({ tax_category: undefined, tax_percentage: undefined })] }))).toEqual([]);
  });

  it('given an embedded document without mime_code and filename, when parsed, then custom issues for both', () => {
    expect(issuesOf(invoice({ document_references: [{ document_identifier: 'PO-1', embedded_document: { content: 'UERGIGJ5dGVz' } }] }))).toEqual([
      issue('document_references[0].embedded_document.mime_code', 'custom', /is required once embedded_document is sent/),
      issue('document_references[0].embedded_document.filename', 'custom', /is required once embedded_document is sent/),
    ]);
  });

  it('#44 given a card without network_id or without its number, when parsed, then custom issues at each missing field (cac:CardAccount, UBL 2.1 XSD)', () => {
    const card = (c: Record<string, unknown>) => invoice({ payment_means: [{ type_code: '30', payment_account_id: 'AE07' }, { type_code: '54', card: c }] });
    expect(issuesOf(card({ primary_account_number: 'XXXXXXXXXXXX1234', holder_name: 'A Holder' }))).toEqual([
      issue('payment_means[1].card.network_id', 'custom', /^payment_means\[1\]\.card\.network_id is required once card is sent: the card network/),
    ]);
    expect(issuesOf(card({ network_id: 'VISA' })).map((i) => i.path)).toEqual(['payment_means[1].card.primary_account_number']);
    expect(issuesOf(card({})).map((i) => i.path)).toEqual(['payment_means[1].card.primary_account_number', 'payment_means[1].card.network_id']);
    expect(issuesOf(card({ primary_account_number: 'XXXXXXXXXXXX1234', network_id: 'VISA' }))).toEqual([]);
  });

  it('#44 given an empty identifier (document, line, reference, contract) or an empty card field, when parsed, then custom at each: an empty text writes no element', () => {
    const body = invoice({
      document_identifier: '',
      lines: [line({ line_id: ' ' })],
      document_references: [{ document_identifier: '', attachment_uri: 'https://example.com/po.pdf' }],
      other_references: { contract_reference: '' },
      contract_value: 'AED 5000',
      payment_means: [{ type_code: '54', card: { primary_account_number: 'XXXXXXXXXXXX1234', network_id: '' } }],
    });
    expect(issuesOf(body)).toEqual([
      issue('document_identifier', 'custom', 'Expected an identifier, received an empty text'),
      issue('lines[0].line_id', 'custom', 'Expected an identifier, received an empty text'),
      issue('document_references[0].document_identifier', 'custom', 'Expected an identifier, received an empty text'),
      issue('other_references.contract_reference', 'custom', 'Expected an identifier, received an empty text'),
      issue('payment_means[0].card.network_id', 'custom', /is required once card is sent/),
    ]);
  });

  it('#44 given embedded content that is not xsd:base64Binary (unpadded, stray =), when parsed, then custom at its content; line breaks are fine', () => {
    const embedded = (content: string) => invoice({ document_references: [{ document_identifier: 'TS-1', embedded_document: { mime_code: 'application/pdf', filename: 'ts.pdf', content } }] });
    for (const content of ['Sample', 'UERGIGJ5dGVz=', 'UE=RGIGJ5dGVz']) {
      expect(issuesOf(embedded(content))).toEqual([issue('document_references[0].embedded_document.content', 'custom', /^Expected base64 content/)]);
    }
    expect(issuesOf(embedded('UERGIGJ5\r\ndGVz'))).toEqual([]);
    expect(issuesOf(embedded(Buffer.from('PDF bytes!').toString('base64')))).toEqual([]);
    // The bits a padding leaves over are zero (QQ== is 'A'; QR== is not canonical).
    expect(issuesOf(embedded('QR=='))).toHaveLength(1);
  });

  it('#44 given an attachment above the 20 MiB ceiling, when its content is checked, then it is read as base64 without exhausting the regular expression stack', () => {
    const content = Buffer.alloc(22 * 1024 * 1024, 7).toString('base64');
    const body = invoice({ document_references: [{ document_identifier: 'TS-1', embedded_document: { mime_code: 'application/pdf', filename: 'ts.pdf', content } }] });
    expect(issuesOf(body)).toEqual([]);
    expect(issuesOf({ ...body, document_references: [{ document_identifier: 'TS-1', embedded_document: { mime_code: 'application/pdf', filename: 'ts.pdf', content: `${content}A` } }] }))
      .toEqual([issue('document_references[0].embedded_document.content', 'custom', /^Expected base64 content/)]);
  });

  it('given malformed strings, when parsed, then custom issues naming the expected form', () => {
    expect(issuesOf(invoice({ issue_date: '01/07/2026', document_currency: 'aed', lines: [line({ unit_price: '1,200.00' })], receiving_party: { ...receivingParty, peppol_id: '1345678901' } })))
      .toEqual([
        issue('issue_date', 'custom', 'Expected a real date written YYYY-MM-DD, received "01/07/2026"'),
        issue('document_currency', 'custom', 'Expected three upper-case letters (ISO 4217) such as AED, received "aed"'),
        issue('receiving_party.peppol_id', 'custom', /^Expected a Peppol participant id written <scheme>:<identifier>/),
        issue('lines[0].unit_price', 'custom', 'Expected a decimal string such as "1200.00", received "1,200.00"'),
      ]);
  });

  it('given a body that is not an object, when parsed, then one invalid_type issue for the body', () => {
    expect(issuesOf([invoice()])).toEqual([issue('', 'invalid_type', 'Expected object, received array')]);
  });
});

describe('parseUaeDocument: normalisation', () => {
  it('given no flags, when parsed, then all nine flags are false (README: absent flags)', () => {
    expect(documentOf(invoice()).flags).toEqual({ is_ftz: false, is_deemed: false, is_margin: false, is_summary: false, is_continuous: false,
      is_dab: false, is_ecommerce: false, is_export: false, is_selfbilled: false });
    expect(documentOf(invoice({ flags: { is_export: true } })).flags.is_export).toBe(true);
  });

  it('given bare numbers where the seed takes them, when parsed, then they become decimal strings', () => {
    const d = documentOf(invoice({ invoice_totals: { payable_amount: 1050 }, lines: [line({ quantity: 2.5, tax_percentage: 5 })] }));
    expect(d.invoice_totals?.payable_amount).toBe('1050');
    expect(d.lines[0].quantity).toBe('2.5');
    expect(d.lines[0].tax_percentage).toBe('5');
  });

  it('given unknown keys, nulls, the singular allowance_charge and a rate inside a tax row, when parsed, then they are dropped silently', () => {
    const d = documentOf(invoice({ surprise: 1, note: null, allowance_charge: { charge_indicator: false, amount: '5' },
      tax_totals: [{ tax_category: 'S', tax_rate: '5', tax_percentage: '5', taxable_amount: '1000.00', tax_amount: '50.00' }] }));
    expect(d).not.toHaveProperty('surprise');
    expect(d).not.toHaveProperty('note');
    expect(d).not.toHaveProperty('allowance_charge');
    expect(d.tax_totals?.[0]).toEqual({ tax_category: 'S', tax_rate: '5', taxable_amount: '1000.00', tax_amount: '50.00' });
  });

  it('given issuing_party with peppol_id and legal_name, when parsed, then both are dropped (they come from the registration)', () => {
    const d = documentOf(invoice({ issuing_party: { peppol_id: '0235:9999999999', legal_name: 'Someone else', trading_name: 'Widgets' } }));
    expect(d.issuing_party).toEqual({ trading_name: 'Widgets' });
  });

  it('given a reference without document_identifier and an empty payee_party, when parsed, then both are dropped', () => {
    const d = documentOf(invoice({ payee_party: {}, document_references: [{ attachment_uri: 'https://x.ae/a.pdf' }, { document_identifier: 'PO-1' }] }));
    expect(d).not.toHaveProperty('payee_party');
    expect(d.document_references).toEqual([{ document_identifier: 'PO-1' }]);
  });

  it('given payment_terms as text or as instalments, when parsed, then both are accepted; anything else is invalid_union', () => {
    expect(documentOf(invoice({ payment_terms: '30 days' })).payment_terms).toBe('30 days');
    expect(documentOf(invoice({ payment_terms: [{ amount: '525.00', installment_due_date: '2026-08-01' }] })).payment_terms)
      .toEqual([{ amount: '525.00', installment_due_date: '2026-08-01' }]);
    expect(issuesOf(invoice({ payment_terms: 30 }))).toEqual([issue('payment_terms', 'invalid_union', 'Invalid input')]);
  });
});
