import type { FieldIssue } from '@einvoice/domain';
import { ImpreciseNumber } from '../shared/validate';
import { parseUaeDocument, type UaeDocument } from './document';
import { invoice, line, receivingParty } from './fixtures/bodies';

const issuesOf = (body: unknown): readonly FieldIssue[] => {
  const r = parseUaeDocument(body);
  return 'issues' in r ? r.issues : [];
};
const documentOf = (body: unknown): UaeDocument => {
  const r = parseUaeDocument(body);
  if ('issues' in r) throw new Error(JSON.stringify(r.issues));
  return r.document;
};
const issue = (path: string, code: string, message: string | RegExp) => expect.objectContaining({ path, code, message: message instanceof RegExp ? expect.stringMatching(message) : message, severity: 'error' });

describe('parseUaeDocument: phase 1 field validation (seed 001 "Errors"), in every area\'s codes and paths (#45)', () => {
  it('given a valid document at the root or under `document`, when parsed, then both give the same document', () => {
    expect(documentOf({ document: invoice() })).toEqual(documentOf(invoice()));
  });

  it.each(['document_identifier', 'issue_date', 'document_type', 'document_currency'])(
    'given no %s, when parsed, then FIELD.REQUIRED at its path', (key) => {
      const body = invoice();
      delete body[key];
      expect(issuesOf(body)).toEqual([issue(key, 'FIELD.REQUIRED', `${key} is required`)]);
    });

  it.each(['legal_name', 'street_address'])('given a receiving party without %s, when parsed, then FIELD.REQUIRED under receiving_party', (key) => {
    const party: Record<string, unknown> = { ...receivingParty };
    delete party[key];
    expect(issuesOf(invoice({ receiving_party: party }))).toEqual([issue(`receiving_party.${key}`, 'FIELD.REQUIRED', `receiving_party.${key} is required`)]);
  });

  it('given wrong JSON types, when parsed, then FIELD.INVALID_TYPE at dotted paths, list entries by index (lines[0].unit_price)', () => {
    expect(issuesOf(invoice({ document_identifier: 12, lines: [line({ unit_price: 100 })], contract_value: 5000, flags: { is_export: 'yes' } }))).toEqual([
      issue('document_identifier', 'FIELD.INVALID_TYPE', 'document_identifier must be a string'),
      issue('flags.is_export', 'FIELD.INVALID_TYPE', 'flags.is_export must be true or false'),
      issue('lines[0].unit_price', 'FIELD.INVALID_TYPE', 'lines[0].unit_price must be a string'),
      issue('contract_value', 'FIELD.INVALID_TYPE', 'contract_value must be a string'),
    ]);
  });

  it('#45 given no zod code anywhere: a wrong block, list or value answers as every area does', () => {
    expect(issuesOf(invoice({ receiving_party: 'Buyer', lines: [] }))).toEqual([
      issue('receiving_party', 'FIELD.INVALID_TYPE', 'receiving_party must be an object'),
      issue('lines', 'FIELD.TOO_FEW', 'lines must contain at least 1 element'),
    ]);
    expect(issuesOf(invoice({ lines: [[]] }))).toEqual([issue('lines', 'FIELD.INVALID_TYPE', 'lines must contain objects, not arrays (element 0 is an array)')]);
  });

  it('given a value outside its list, when parsed, then FIELD.INVALID_VALUE naming the list (it was zod\'s invalid_enum_value)', () => {
    expect(issuesOf(invoice({ document_type: '388' }))).toEqual([
      issue('document_type', 'FIELD.INVALID_VALUE', 'document_type must be one of: 380, 480, 381, 81, 389, 261'),
    ]);
    expect(issuesOf(invoice({ lines: [line({ tax_category: 'X' })] }))).toEqual([
      issue('lines[0].tax_category', 'FIELD.INVALID_VALUE', 'lines[0].tax_category must be one of: S, Z, E, O, AE, N'),
    ]);
    expect(issuesOf(invoice({ issuing_party: { legal_id: { id: 'CL-1', scheme: 'CL' } } }))).toEqual([
      issue('issuing_party.legal_id.scheme', 'FIELD.INVALID_VALUE', 'issuing_party.legal_id.scheme must be one of: TL, EID, PAS, CD'),
    ]);
  });

  it('given a tax row without tax_rate or taxable_amount, when parsed, then FIELD.REQUIRED at both (seed "Totals")', () => {
    expect(issuesOf(invoice({ tax_totals: [{ tax_category: 'S', tax_percentage: '5', tax_amount: '50.00' }] }))).toEqual([
      issue('tax_totals[0].tax_rate', 'FIELD.REQUIRED', 'tax_totals[0].tax_rate is required'),
      issue('tax_totals[0].taxable_amount', 'FIELD.REQUIRED', 'tax_totals[0].taxable_amount is required'),
    ]);
  });

  it('given payable_amount as a boolean or a quantity with an exponent, when parsed, then FIELD.INVALID_TYPE and FIELD.INVALID_FORMAT (it takes a decimal string or a number)', () => {
    expect(issuesOf(invoice({ invoice_totals: { payable_amount: true } }))).toEqual([
      issue('invoice_totals.payable_amount', 'FIELD.INVALID_TYPE', 'invoice_totals.payable_amount must be a decimal string or a number'),
    ]);
    expect(issuesOf(invoice({ lines: [line({ quantity: '1e5' }), line({ quantity: 1e21 })] }))).toEqual([
      issue('lines[0].quantity', 'FIELD.INVALID_FORMAT', 'lines[0].quantity must be a plain decimal such as 12.5'),
      issue('lines[1].quantity', 'FIELD.INVALID_FORMAT', 'lines[1].quantity must be a plain decimal such as 12.5'),
    ]);
  });

  it('given no receiving_party.peppol_id next to a type error elsewhere, when parsed, then both: FIELD.REQUIRED saying what to send, and the type error', () => {
    const { peppol_id: _omitted, ...party } = receivingParty;
    expect(issuesOf(invoice({ receiving_party: party, issue_date: 20260701 }))).toEqual([
      issue('issue_date', 'FIELD.INVALID_TYPE', 'issue_date must be a string'),
      issue('receiving_party.peppol_id', 'FIELD.REQUIRED',
        'receiving_party.peppol_id is required: the Peppol participant id of the receiver, written <scheme>:<identifier> such as 0235:1234567890'),
    ]);
  });

  it('given a credit note 381 without reason code and a line without tax category, when parsed, then FIELD.REQUIRED for both, saying what to send', () => {
    expect(issuesOf(invoice({ document_type: '381', lines: [line({ tax_category: undefined })] }))).toEqual([
      issue('credit_note_reason_code', 'FIELD.REQUIRED',
        'credit_note_reason_code is required on a credit note (381): one of DL8.61.1.A, DL8.61.1.B, DL8.61.1.C, DL8.61.1.D, DL8.61.1.E, VD'),
      issue('lines[0].tax_category', 'FIELD.REQUIRED', 'lines[0].tax_category is required: one of S, Z, E, O, AE, N'),
    ]);
    expect(issuesOf(invoice({ lines: [line({ tax_category: null })] }))).toEqual([issue('lines[0].tax_category', 'FIELD.REQUIRED', /^lines\[0\]\.tax_category is required/)]);
  });

  it('given a reason code on another type than 381, when parsed, then it is taken when in its list, refused otherwise', () => {
    expect(issuesOf(invoice({ credit_note_reason_code: 'VD' }))).toEqual([]);
    expect(issuesOf(invoice({ document_type: '480', credit_note_reason_code: 'X' }))).toEqual([issue('credit_note_reason_code', 'FIELD.INVALID_VALUE', /^credit_note_reason_code must be one of: DL8\.61\.1\.A/)]);
  });

  it('given an out-of-scope credit note 81 with a line without tax category, when parsed, then it is accepted (ibr-123-ae)', () => {
    expect(issuesOf(invoice({ document_type: '81', lines: [line({ tax_category: undefined, tax_percentage: undefined })] }))).toEqual([]);
  });

  it('given an embedded document without mime_code and filename, when parsed, then FIELD.REQUIRED for both', () => {
    expect(issuesOf(invoice({ document_references: [{ document_identifier: 'PO-1', embedded_document: { content: 'UERGIGJ5dGVz' } }] }))).toEqual([
      issue('document_references[0].embedded_document.mime_code', 'FIELD.REQUIRED', /is required once embedded_document is sent: e\.g\. application\/pdf$/),
      issue('document_references[0].embedded_document.filename', 'FIELD.REQUIRED', /is required once embedded_document is sent/),
    ]);
  });

  it('#44 given a card without network_id or without its number, when parsed, then FIELD.REQUIRED at each missing field (cac:CardAccount, UBL 2.1 XSD)', () => {
    const card = (c: Record<string, unknown>) => invoice({ payment_means: [{ type_code: '30', payment_account_id: 'AE07' }, { type_code: '54', card: c }] });
    expect(issuesOf(card({ primary_account_number: 'XXXXXXXXXXXX1234', holder_name: 'A Holder' }))).toEqual([
      issue('payment_means[1].card.network_id', 'FIELD.REQUIRED', /^payment_means\[1\]\.card\.network_id is required once card is sent: the card network/),
    ]);
    expect(issuesOf(card({ network_id: 'VISA' })).map((i) => i.path)).toEqual(['payment_means[1].card.primary_account_number']);
    expect(issuesOf(card({})).map((i) => i.path)).toEqual(['payment_means[1].card.primary_account_number', 'payment_means[1].card.network_id']);
    expect(issuesOf(card({ primary_account_number: 'XXXXXXXXXXXX1234', network_id: 'VISA' }))).toEqual([]);
  });

  it('#44 given an empty identifier (document, line, reference, contract) or an empty card field, when parsed, then FIELD.REQUIRED at each: an empty text writes no element', () => {
    const body = invoice({
      document_identifier: '',
      lines: [line({ line_id: ' ' })],
      document_references: [{ document_identifier: '', attachment_uri: 'https://example.com/po.pdf' }],
      other_references: { contract_reference: '' },
      contract_value: 'AED 5000',
      payment_means: [{ type_code: '54', card: { primary_account_number: 'XXXXXXXXXXXX1234', network_id: '' } }],
    });
    const empty = 'must not be empty: the UBL element it fills is mandatory';
    expect(issuesOf(body)).toEqual([
      issue('document_identifier', 'FIELD.REQUIRED', `document_identifier ${empty}`),
      issue('payment_means[0].card.network_id', 'FIELD.REQUIRED', /is required once card is sent/),
      issue('lines[0].line_id', 'FIELD.REQUIRED', `lines[0].line_id ${empty}`),
      issue('document_references[0].document_identifier', 'FIELD.REQUIRED', `document_references[0].document_identifier ${empty}`),
      issue('other_references.contract_reference', 'FIELD.REQUIRED', `other_references.contract_reference ${empty}`),
    ]);
  });

  it('#44 given embedded content that is not xsd:base64Binary (unpadded, stray =), when parsed, then FIELD.INVALID_FORMAT at its content; line breaks are fine', () => {
    const embedded = (content: string) => invoice({ document_references: [{ document_identifier: 'TS-1', embedded_document: { mime_code: 'application/pdf', filename: 'ts.pdf', content } }] });
    for (const content of ['Sample', 'UERGIGJ5dGVz=', 'UE=RGIGJ5dGVz']) {
      expect(issuesOf(embedded(content))).toEqual([issue('document_references[0].embedded_document.content', 'FIELD.INVALID_FORMAT', /^document_references\[0\]\.embedded_document\.content must be base64 content/)]);
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
      .toEqual([issue('document_references[0].embedded_document.content', 'FIELD.INVALID_FORMAT', /must be base64 content/)]);
  });

  it('given malformed strings, when parsed, then FIELD.INVALID_FORMAT naming the expected form', () => {
    expect(issuesOf(invoice({ issue_date: '01/07/2026', issue_time: '25:00:00', document_currency: 'aed', lines: [line({ unit_price: '1,200.00' })],
      receiving_party: { ...receivingParty, peppol_id: '1345678901', country_code: 'ae' } })))
      .toEqual([
        issue('issue_date', 'FIELD.INVALID_FORMAT', 'issue_date must be a real date written YYYY-MM-DD'),
        issue('issue_time', 'FIELD.INVALID_FORMAT', 'issue_time must be a time written hh:mm:ss with an optional zone such as +04:00'),
        issue('document_currency', 'FIELD.INVALID_FORMAT', 'document_currency must be three upper-case letters (ISO 4217) such as EUR'),
        issue('receiving_party.peppol_id', 'FIELD.INVALID_FORMAT', /^receiving_party\.peppol_id must be a Peppol participant id written <scheme>:<identifier>/),
        issue('receiving_party.country_code', 'FIELD.INVALID_FORMAT', 'receiving_party.country_code must be two upper-case letters (ISO 3166-1 alpha-2) such as AE'),
        issue('lines[0].unit_price', 'FIELD.INVALID_FORMAT', 'lines[0].unit_price must be a decimal string such as "1200.00"'),
      ]);
  });

  it('given a body that is not an object, when parsed, then one FIELD.INVALID_TYPE issue for the body', () => {
    expect(issuesOf([invoice()])).toEqual([issue('', 'FIELD.INVALID_TYPE', 'The request body must be a JSON object.')]);
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

  it('given a bare number the gateway\'s parser could not hold exactly, when parsed, then a decimal keeps the text sent; a text field refuses it', () => {
    const exact = new ImpreciseNumber('2.500000000000000000001');
    expect(documentOf(invoice({ lines: [line({ quantity: exact })] })).lines[0].quantity).toBe('2.500000000000000000001');
    expect(issuesOf(invoice({ lines: [line({ unit_price: exact })] }))).toEqual([issue('lines[0].unit_price', 'FIELD.IMPRECISE_NUMBER', /^lines\[0\]\.unit_price is a number/)]);
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

  it('given payment_terms as text or as instalments, when parsed, then both are accepted; anything else is refused, an instalment at its own path', () => {
    expect(documentOf(invoice({ payment_terms: '30 days' })).payment_terms).toBe('30 days');
    expect(documentOf(invoice({ payment_terms: [{ amount: '525.00', installment_due_date: '2026-08-01' }] })).payment_terms)
      .toEqual([{ amount: '525.00', installment_due_date: '2026-08-01' }]);
    expect(issuesOf(invoice({ payment_terms: 30 }))).toEqual([issue('payment_terms', 'FIELD.INVALID_TYPE', 'payment_terms must be a text or a list of instalments')]);
    expect(issuesOf(invoice({ payment_terms: [{ amount: 525 }] }))).toEqual([
      issue('payment_terms[0].amount', 'FIELD.INVALID_TYPE', 'payment_terms[0].amount must be a string'),
      issue('payment_terms[0].installment_due_date', 'FIELD.REQUIRED', 'payment_terms[0].installment_due_date is required'),
    ]);
  });
});
