/**
 * PINT MY 1.3.1 (OpenPeppol, Malaysia) UBL for `transport_mode: peppol`, rendered from the same
 * parsed document and the same totals as the MyInvois forms. Identifiers follow the official
 * examples (shared/conformance/pint-my/1.3.1/examples): CustomizationID
 * `urn:peppol:pint:billing-1@my-1` / `urn:peppol:pint:selfbilling-1@my-1`, ProfileID
 * `urn:peppol:bis:billing` / `urn:peppol:bis:selfbilling`; TIN as EndpointID (scheme 0230) and
 * PartyTaxScheme GST (ibt-032, ibr-04-my), BRN as legal registration (ibt-030/047, ibr-02/03-my),
 * SST as PartyTaxScheme VAT.
 */
import type Decimal from 'decimal.js';
import { dec } from '../shared/money';
import { stated, writeUbl, type UblAllowanceCharge, type UblDocument, type UblParty, type UblTaxCategory, type UblTaxTotal } from '../ubl';
import { toAlpha2 } from './country-codes';
import { typeCodeOf } from './document-tree';
import { pintMyIds, pintMyType, PintMyUnsupported } from './pint-my-codes';
import { documentLevelCategory, PintMyCategory, PintMyLine, pintMyTaxes, PintMyTaxes } from './pint-my-taxes';
import type { AmountReason, DocumentBase, MyInvoisDocument } from './schema-document';
import type { MyInvoisSupplier } from './schema-onboarding';
import { computeTotals } from './totals';
import { customerParty, PartyData, sellerParty, supplierParty } from './tree-parties';

/** Alpha-2 of a party's country (ibr-cl-14); `path` names the body field it came from. */
function alpha2(code: string, path: string): string {
  const a2 = toAlpha2(code);
  if (!a2) throw new PintMyUnsupported(path, 'ibr-cl-14', `${code} is not an ISO 3166-1 country code PINT MY can state as alpha-2`);
  return a2;
}

/** A party; `countryPath` is the body field of its country, for a refusal. */
function party(p: PartyData, seller: boolean, countryPath: string): UblParty {
  const [l0, l1, ...rest] = p.address.lines;
  return {
    endpoint: { id: p.tin, schemeId: '0230' },
    industryClassification: seller && p.msic ? { code: p.msic.code, name: p.msic.description } : undefined,
    identifications: p.id.scheme === 'BRN' ? [] : [{ id: `${p.id.scheme}:${p.id.value}` }],
    name: p.name,
    address: {
      street: stated(l0),
      additionalStreet: stated(l1),
      city: p.address.city,
      postalZone: stated(p.address.postalZone),
      countrySubentityCode: p.address.state,
      lines: rest,
      country: alpha2(p.address.country, countryPath),
    },
    taxSchemes: [
      ...(seller ? [{ companyId: p.tin, taxScheme: 'GST' }] : []),
      ...(p.sst !== 'NA' ? [{ companyId: p.sst.split(';')[0], taxScheme: 'VAT' }] : []),
    ],
    legalEntity: { registrationName: p.name, companyId: { id: p.id.scheme === 'BRN' ? p.id.value : 'NA' } },
    contact: { telephone: stated(p.telephone), email: stated(p.email) },
  };
}

/** TaxCategory (breakdowns, line subtotals, allowances: with an exemption reason) or ClassifiedTaxCategory (items). */
function taxCategory(c: PintMyCategory, withExemption: boolean): UblTaxCategory {
  return {
    id: c.code,
    percent: c.percent,
    exemptionReason: withExemption && c.code === 'E' ? stated(c.exemptionReason ?? 'Exempt') : undefined,
    taxScheme: c.scheme,
  };
}

/** The line TaxTotal: one subtotal per LineTaxes entry, per-unit ones with their base and amount per unit. */
function lineTaxTotal(line: PintMyLine, cur: string, unit: string): UblTaxTotal {
  return {
    currency: cur,
    tax: line.taxAmount,
    subtotals: line.taxes.map((t) => ({
      taxable: t.taxable,
      tax: t.amount,
      baseUnitMeasure: t.baseUnit && { value: t.baseUnit, unitCode: unit },
      perUnitAmount: t.perUnit,
      category: taxCategory(t.category, true),
    })),
  };
}

function allowanceCharge(a: AmountReason, charge: boolean, c?: PintMyCategory): UblAllowanceCharge {
  return { charge, reason: a.Reason ?? (charge ? 'Charge' : 'Discount'), amount: dec(a.Amount), category: c && taxCategory(c, true) };
}

/**
 * The PINT MY layer over the one UBL document (../ubl): a parsed document with the lines,
 * totals and taxes MyInvois computes (pint-my-taxes.ts: one tax category per LineTaxes entry,
 * per-unit taxes, untaxed document-level discounts and charges).
 * @throws PintMyUnsupported (a RangeError) for what PINT MY cannot express, naming the field and rule
 */
export function pintMyDocument(doc: MyInvoisDocument, supplier: MyInvoisSupplier): UblDocument {
  const body: DocumentBase = doc.body;
  const cur = body.DocumentCurrencyCode ?? 'MYR';
  const totals = computeTotals({ ...body, InvoiceTotal: undefined });
  const spec = doc.kind === 'self-billed' ? pintMyIds.selfbilling : pintMyIds.billing;
  const { root, typeCode } = pintMyType(typeCodeOf(doc.kind, body.InvoiceTypeCode));
  const [seller, sellerCountry] = doc.kind === 'self-billed' ? [sellerParty(doc.body.SupplierParty), 'SupplierParty.CountryCode'] : [supplierParty(supplier), 'supplier.country'];
  const [buyer, buyerCountry] = doc.kind === 'self-billed' ? [supplierParty(supplier), 'supplier.country']
    : [customerParty(doc.body.CustomerParty, doc.kind === 'consolidated'), 'CustomerParty.CountryCode'];
  const taxes = pintMyTaxes(body, totals);
  const docAc = [...(body.Discounts ?? []).map((a) => [a, false] as const), ...(body.Charges ?? []).map((a) => [a, true] as const)];
  const inclusive = totals.taxExclusive.plus(taxes.total);
  const reference = body.InvoiceDocumentReference?.[0];
  return {
    root,
    customizationId: spec.customizationId,
    profileId: spec.profileId,
    id: body.ID,
    issueDate: body.IssueDate,
    issueTime: body.IssueTime,
    typeCode,
    currency: cur,
    taxCurrency: cur !== 'MYR' ? 'MYR' : undefined,
    buyerReference: body.ID,
    billingReference: reference && { id: reference.InternalID, uuid: reference.UUID },
    seller: party(seller, true, sellerCountry),
    buyer: party(buyer, false, buyerCountry),
    paymentTerms: 'As agreed',
    allowanceCharges: docAc.map(([a, charge]) => allowanceCharge(a, charge, documentLevelCategory)),
    taxTotals: taxTotals(cur, taxes, body),
    totals: {
      lineExtension: totals.lineTotal,
      taxExclusive: totals.taxExclusive,
      taxInclusive: inclusive,
      allowanceTotal: docAc.length ? totals.allowanceTotal : undefined,
      chargeTotal: docAc.length ? totals.chargeTotal : undefined,
      prepaid: totals.prepaid.isZero() ? undefined : totals.prepaid,
      payable: inclusive.minus(totals.prepaid),
    },
    lines: body.InvoiceLines.map((l, i) => ({
      quantity: totals.lines[i].quantity,
      unitCode: l.UOM ?? 'C62',
      lineExtension: totals.lines[i].net,
      allowanceCharges: [...(l.Discounts ?? []).map((a) => allowanceCharge(a, false)), ...(l.Charges ?? []).map((a) => allowanceCharge(a, true))],
      taxTotal: lineTaxTotal(taxes.lines[i], cur, l.UOM ?? 'C62'),
      item: {
        name: l.Description,
        classifications: l.ClassificationCode.map((code) => ({ code, listId: 'CG' })),
        taxCategories: taxes.lines[i].categories.map((c) => taxCategory(c, false)),
      },
      price: dec(l.PriceAmount),
    })),
  };
}

/** PINT MY UBL of a parsed document (`pintMyDocument` written). */
export function renderPintMy(doc: MyInvoisDocument, supplier: MyInvoisSupplier): string {
  return writeUbl(pintMyDocument(doc, supplier));
}

/** BG-23 breakdowns; in a foreign currency also the tax in MYR (ibt-111, ibr-cl-05-my). */
function taxTotals(cur: string, taxes: PintMyTaxes, body: DocumentBase): UblTaxTotal[] {
  const rate = body.TaxExchangeRate === undefined ? undefined : dec(body.TaxExchangeRate);
  return [
    { currency: cur, tax: taxes.total, subtotals: taxes.breakdown.map((b) => ({ taxable: b.taxable, tax: b.amount, category: taxCategory(b.category, true) })) },
    ...(cur !== 'MYR' && rate ? [{ currency: 'MYR', tax: taxes.total.times(rate) as Decimal, subtotals: [] }] : []),
  ];
}
