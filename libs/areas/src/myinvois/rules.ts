/**
 * Business rules of the Malaysian area beyond the schema (seed 000 "Malaysian area" tables and
 * the LHDN MyInvois SDK). Each rule is pure and returns FieldIssue[] naming the full field path;
 * the `check*` functions run them all so a client sees every problem at once.
 */
import { FieldIssue, issue } from '@einvoice/domain';
import { isISO31661Alpha3 } from 'class-validator';
import { formatAmount, round2 } from '../shared/money';
import { currencyCodes } from '../peppol-ubl/tax';
import type { Address, DocumentBase, DocumentKind, LineTax } from './schema-document';
import type { MyInvoisOnboardingBody, MyInvoisSupplier, TinValidationBody } from './schema-onboarding';
import { computeTotals, invoiceTotalTolerance } from './totals';

/** Issue codes of the Malaysian rules (schema issues keep FIELD.*). */
export const MyInvoisCode = {
  TIN_FORMAT: 'MYINVOIS.TIN_FORMAT',
  ONE_ID_REQUIRED: 'MYINVOIS.ONE_ID_REQUIRED',
  ID_REQUIRED: 'MYINVOIS.ID_REQUIRED',
  SST_FORMAT: 'MYINVOIS.SST_FORMAT',
  SST_REQUIRED: 'MYINVOIS.SST_REQUIRED',
  TTX_REQUIRED: 'MYINVOIS.TTX_REQUIRED',
  STATE_CODE: 'MYINVOIS.STATE_CODE',
  COUNTRY_CODE: 'MYINVOIS.COUNTRY_CODE',
  CURRENCY_CODE: 'MYINVOIS.CURRENCY_CODE',
  EXCHANGE_RATE_REQUIRED: 'MYINVOIS.EXCHANGE_RATE_REQUIRED',
  DOCUMENT_REFERENCE_REQUIRED: 'MYINVOIS.DOCUMENT_REFERENCE_REQUIRED',
  EXEMPTION_REASON_REQUIRED: 'MYINVOIS.EXEMPTION_REASON_REQUIRED',
  TAX_RATE_OR_PER_UNIT: 'MYINVOIS.TAX_RATE_OR_PER_UNIT',
  TAX_RATE_FRACTION: 'MYINVOIS.TAX_RATE_FRACTION',
  CLASSIFICATION_CODE: 'MYINVOIS.CLASSIFICATION_CODE',
  ADDRESS_LINES: 'MYINVOIS.ADDRESS_LINES',
  SPECIAL_CHARACTERS: 'MYINVOIS.SPECIAL_CHARACTERS',
  NEGATIVE_AMOUNT: 'MYINVOIS.NEGATIVE_AMOUNT',
  TOTAL_MISMATCH: 'MYINVOIS.TOTAL_MISMATCH',
  GENERAL_PUBLIC_TIN: 'MYINVOIS.GENERAL_PUBLIC_TIN',
  NOT_ALLOWED: 'MYINVOIS.NOT_ALLOWED',
} as const;

/**
 * LHDN TIN: a type prefix then digits. Individuals `IG`; non-individuals C, CS, D, E, F, FA,
 * PT, TA, TC, TN, TR, TP, J, LE; `EI` the authority's special TINs (general public, foreign parties).
 */
export const tinPattern = /^(IG|CS|FA|PT|TA|TC|TN|TR|TP|LE|EI|C|D|E|F|J)\d{1,13}$/;
/** TIN of the general public (consolidated documents). */
export const generalPublicTin = 'EI00000000010';
/** True for an individual's TIN. */
export const isIndividualTin = (tin: string) => tin.startsWith('IG');
/** SST registration number(s): `W10-1808-32000001`, up to two separated by `;`, or `NA`. */
export const sstPattern = /^(NA|[A-Z]\d{2}-\d{4}-\d{8}(;[A-Z]\d{2}-\d{4}-\d{8})?)$/;
/** MyInvois state codes 01–16 and 17 "not applicable" (foreign addresses). */
export const stateCodePattern = /^(0[1-9]|1[0-7])$/;
const alphanumeric = /^[A-Za-z0-9]+$/;

function tinIssue(path: string, tin: string): FieldIssue[] {
  return tinPattern.test(tin) && tin.length <= 14 ? [] : [issue(path, MyInvoisCode.TIN_FORMAT,
    `${path} ${tin} is not an LHDN TIN: a prefix (IG, C, CS, D, E, F, FA, PT, TA, TC, TN, TR, TP, J, LE or EI) followed by digits`)];
}

function stateAndCountry(at: string, state: string, country: string, stateField: string, countryField: string): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (!stateCodePattern.test(state)) issues.push(issue(`${at}${stateField}`, MyInvoisCode.STATE_CODE, `${at}${stateField} must be a MyInvois state code 01–17 (17: not applicable)`));
  if (!/^[A-Z]{3}$/.test(country) || !isISO31661Alpha3(country)) issues.push(issue(`${at}${countryField}`, MyInvoisCode.COUNTRY_CODE, `${at}${countryField} must be an ISO 3166-1 alpha-3 code such as MYS`));
  return issues;
}

// ---------------------------------------------------------------- onboarding and TIN validation

/** Onboarding: TIN format, which other_ids are mandatory, SST format, state and country codes. */
export function checkOnboarding(body: MyInvoisOnboardingBody): FieldIssue[] {
  const issues = tinIssue('tin_number', body.tin_number);
  const ids = body.other_ids;
  if (!isIndividualTin(body.tin_number)) {
    if (!ids.brn) issues.push(issue('other_ids.brn', MyInvoisCode.ID_REQUIRED, 'other_ids.brn is required for a business (a TIN not starting with IG)'));
  } else if (body.country !== 'MYS') {
    if (!ids.passport) issues.push(issue('other_ids.passport', MyInvoisCode.ID_REQUIRED, 'other_ids.passport is required for a non-Malaysian individual (country other than MYS)'));
  } else if (!ids.nric && !ids.army) {
    issues.push(issue('other_ids.nric', MyInvoisCode.ID_REQUIRED, 'other_ids.nric (or other_ids.army) is required for a Malaysian individual'));
  }
  // Whether the supplier is an SST registrant is known from what it declares: a given sst must be valid,
  // and documents charging sales or service tax require it (checkSupplierTaxes).
  if (ids.sst !== undefined && !sstPattern.test(ids.sst)) {
    issues.push(issue('other_ids.sst', MyInvoisCode.SST_FORMAT, 'other_ids.sst must be NA or an SST number such as W10-1808-32000001 (two separated by ;)'));
  }
  if (!/^\d{5}$/.test(body.msic_code)) issues.push(issue('msic_code', 'FIELD.INVALID_FORMAT', 'msic_code must be a 5-digit MSIC code such as 46510 (00000 if not applicable)'));
  issues.push(...stateAndCountry('', body.state, body.country, 'state', 'country'));
  return issues;
}

/** TIN validation request: TIN format and the shape of the chosen id. */
export function checkTinValidation(body: TinValidationBody): FieldIssue[] {
  const issues = tinIssue('tin_number', body.tin_number);
  if (body.id_type === 'NRIC' && !/^\d{12}$/.test(body.id_value)) issues.push(issue('id_value', 'FIELD.INVALID_FORMAT', 'id_value must be the 12 digits of an NRIC'));
  if (body.id_type !== 'BRN' && body.id_value.length > 12) issues.push(issue('id_value', 'FIELD.TOO_LONG', `id_value must be at most 12 characters for ${body.id_type}`));
  return issues;
}

// ---------------------------------------------------------------- documents

type Body = DocumentBase & { CustomerParty?: Record<string, unknown> & Address; SupplierParty?: Record<string, unknown> & Address; DeliveryDetails?: Record<string, unknown> & Address };

/** AddressLines 1..3, each 1..150 characters (MyInvois address line limit). */
export function addressRule(at: string, a: Address): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (a.AddressLines.length < 1 || a.AddressLines.length > 3) {
    issues.push(issue(`${at}.AddressLines`, MyInvoisCode.ADDRESS_LINES, `${at}.AddressLines must have 1 to 3 lines (NA if not recognisable)`));
  }
  a.AddressLines.forEach((line, i) => {
    if (line.trim() === '' || line.length > 150) issues.push(issue(`${at}.AddressLines[${i}]`, MyInvoisCode.ADDRESS_LINES, `${at}.AddressLines[${i}] must be 1 to 150 characters`));
  });
  return [...issues, ...stateAndCountry(`${at}.`, a.CountrySubentityCode, a.CountryCode, 'CountrySubentityCode', 'CountryCode')];
}

/** Exactly one of `{prefix}BRN/NRIC/Passport/ArmyID` (at most one when `optional`), and the TIN format. */
export function partyIdsRule(at: string, party: Record<string, unknown>, prefix: string, optional = false): FieldIssue[] {
  const keys = ['BRN', 'NRIC', 'Passport', 'ArmyID'].map((k) => `${prefix}${k}`);
  const given = keys.filter((k) => typeof party[k] === 'string' && party[k] !== '');
  const issues = tinIssue(`${at}.${prefix}TIN`, party[`${prefix}TIN`] as string);
  if (given.length > 1 || (given.length === 0 && !optional)) {
    issues.push(issue(`${at}.${given[1] ?? keys[0]}`, MyInvoisCode.ONE_ID_REQUIRED, `${at} must carry exactly one of ${keys.join(', ')}${given.length ? `; got ${given.join(', ')}` : ''}`));
  }
  return issues;
}

/** TaxType E needs a reason; TaxRate XOR (TaxBaseUnit with TaxPerUnit); TaxRate is a fraction. */
export function lineTaxRule(at: string, t: LineTax): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (t.TaxType === 'E' && !t.TaxExemptionReason?.trim()) issues.push(issue(`${at}.TaxExemptionReason`, MyInvoisCode.EXEMPTION_REASON_REQUIRED, `${at}.TaxExemptionReason is required when TaxType is E`));
  const rate = t.TaxRate !== undefined;
  const base = t.TaxBaseUnit !== undefined;
  const per = t.TaxPerUnit !== undefined;
  if (rate && (base || per)) {
    issues.push(issue(`${at}.${per ? 'TaxPerUnit' : 'TaxBaseUnit'}`, MyInvoisCode.TAX_RATE_OR_PER_UNIT, `${at}: give either TaxRate, or TaxBaseUnit with TaxPerUnit, never both`));
  } else if (base !== per) {
    const missing = base ? 'TaxPerUnit' : 'TaxBaseUnit';
    issues.push(issue(`${at}.${missing}`, MyInvoisCode.TAX_RATE_OR_PER_UNIT, `${at}.${missing} is required with ${base ? 'TaxBaseUnit' : 'TaxPerUnit'}`));
  } else if (!rate && !base && t.TaxType !== '06' && t.TaxType !== 'E') {
    issues.push(issue(`${at}.TaxRate`, MyInvoisCode.TAX_RATE_OR_PER_UNIT, `${at}.TaxRate (or TaxBaseUnit with TaxPerUnit) is required for TaxType ${t.TaxType}`));
  }
  if (rate && ((t.TaxRate as number) < 0 || (t.TaxRate as number) > 1)) {
    issues.push(issue(`${at}.TaxRate`, MyInvoisCode.TAX_RATE_FRACTION, `${at}.TaxRate is a fraction from 0 to 1 (0.06 for 6 %)`));
  }
  for (const k of ['TaxBaseUnit', 'TaxPerUnit'] as const) {
    if ((t[k] ?? 0) < 0) issues.push(issue(`${at}.${k}`, MyInvoisCode.NEGATIVE_AMOUNT, `${at}.${k} must not be negative`));
  }
  return issues;
}

const nonNegative = (at: string, list?: readonly { Amount: number }[]) =>
  (list ?? []).flatMap((a, i) => (a.Amount < 0 ? [issue(`${at}[${i}].Amount`, MyInvoisCode.NEGATIVE_AMOUNT, `${at}[${i}].Amount must not be negative`)] : []));

/** Lines: classification codes, taxes, non-negative price, positive quantity, unit code shape. */
export function linesRule(doc: DocumentBase): FieldIssue[] {
  return doc.InvoiceLines.flatMap((line, i) => {
    const at = `InvoiceLines[${i}]`;
    const issues: FieldIssue[] = [];
    if (line.ClassificationCode.length === 0) issues.push(issue(`${at}.ClassificationCode`, MyInvoisCode.CLASSIFICATION_CODE, `${at}.ClassificationCode needs at least one code`));
    line.ClassificationCode.forEach((c, j) => {
      if (!/^[0-9A-Za-z]{3}$/.test(c)) issues.push(issue(`${at}.ClassificationCode[${j}]`, MyInvoisCode.CLASSIFICATION_CODE, `${at}.ClassificationCode[${j}] must be exactly 3 characters, such as 022`));
    });
    if (line.PriceAmount < 0) issues.push(issue(`${at}.PriceAmount`, MyInvoisCode.NEGATIVE_AMOUNT, `${at}.PriceAmount must not be negative`));
    if (line.InvoicedQuantity <= 0) issues.push(issue(`${at}.InvoicedQuantity`, 'FIELD.INVALID_VALUE', `${at}.InvoicedQuantity must be greater than 0`));
    if (line.UOM !== undefined && !/^[A-Z0-9]{1,3}$/.test(line.UOM)) issues.push(issue(`${at}.UOM`, 'FIELD.INVALID_FORMAT', `${at}.UOM must be a UN/ECE unit code such as C62`));
    line.LineTaxes.forEach((t, j) => issues.push(...lineTaxRule(`${at}.LineTaxes[${j}]`, t)));
    issues.push(...nonNegative(`${at}.Discounts`, line.Discounts), ...nonNegative(`${at}.Charges`, line.Charges));
    return issues;
  });
}

/** Currency, exchange rate, document reference, customs form, incoterms, document-level amounts. */
export function headerRule(doc: DocumentBase): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const currency = doc.DocumentCurrencyCode ?? 'MYR';
  if (!currencyCodes.has(currency)) issues.push(issue('DocumentCurrencyCode', MyInvoisCode.CURRENCY_CODE, `DocumentCurrencyCode ${currency} is not an ISO 4217 currency code`));
  if (currency !== 'MYR' && doc.TaxExchangeRate === undefined) {
    issues.push(issue('TaxExchangeRate', MyInvoisCode.EXCHANGE_RATE_REQUIRED, `TaxExchangeRate (MYR per 1 ${currency}) is required when DocumentCurrencyCode is not MYR`));
  }
  if (doc.TaxExchangeRate !== undefined && !(Number(doc.TaxExchangeRate) > 0)) issues.push(issue('TaxExchangeRate', 'FIELD.INVALID_VALUE', 'TaxExchangeRate must be greater than 0'));
  if (['02', '03', '04'].includes(doc.InvoiceTypeCode) && !doc.InvoiceDocumentReference?.length) {
    issues.push(issue('InvoiceDocumentReference', MyInvoisCode.DOCUMENT_REFERENCE_REQUIRED,
      `InvoiceDocumentReference (UUID and InternalID of the adjusted document) is required for InvoiceTypeCode ${doc.InvoiceTypeCode}`));
  }
  for (const k of ['CustomsImportForm', 'Incoterms'] as const) {
    const v = doc[k];
    if (v !== undefined && !alphanumeric.test(v)) issues.push(issue(k, MyInvoisCode.SPECIAL_CHARACTERS, `${k} must contain letters and digits only`));
  }
  issues.push(...nonNegative('Discounts', doc.Discounts), ...nonNegative('Charges', doc.Charges), ...nonNegative('Prepayments', doc.Prepayments));
  issues.push(...nonNegative('DeliveryDetails.ShipmentCharges', (doc as Body).DeliveryDetails?.ShipmentCharges as { Amount: number }[] | undefined));
  return issues;
}

/** InvoiceTotal, when given, must be within {@link invoiceTotalTolerance} of the computed total including taxes. */
export function invoiceTotalRule(doc: DocumentBase): FieldIssue[] {
  if (doc.InvoiceTotal === undefined) return [];
  const totals = computeTotals({ ...doc, InvoiceTotal: undefined });
  const diff = round2(doc.InvoiceTotal).minus(totals.taxInclusive).abs();
  const tolerance = invoiceTotalTolerance(doc.InvoiceLines.length);
  return diff.lte(tolerance) ? [] : [issue('InvoiceTotal', MyInvoisCode.TOTAL_MISMATCH,
    `InvoiceTotal is ${String(doc.InvoiceTotal)} but the lines with taxes come to ${formatAmount(totals.taxInclusive)} (accepted difference up to ${formatAmount(tolerance)})`)];
}

/** Parties per kind: customer (invoice), general public (consolidated), seller (self-billed), delivery recipient. */
export function partiesRule(kind: DocumentKind, doc: Body): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (kind === 'self-billed' && doc.SupplierParty) {
    issues.push(...partyIdsRule('SupplierParty', doc.SupplierParty, 'Supplier'), ...addressRule('SupplierParty', doc.SupplierParty));
    const sst = doc.SupplierParty.SupplierSST as string | undefined;
    if (sst !== undefined && !sstPattern.test(sst)) issues.push(issue('SupplierParty.SupplierSST', MyInvoisCode.SST_FORMAT, 'SupplierParty.SupplierSST must be NA or an SST number such as W10-1808-32000001'));
  }
  if (doc.CustomerParty) {
    const c = doc.CustomerParty;
    if (kind === 'consolidated') {
      // Seed: the general-public TIN, or NA (rendered as the general-public TIN); ids may be left out (rendered NA).
      if (c.CustomerTIN !== generalPublicTin && c.CustomerTIN !== 'NA') {
        issues.push(issue('CustomerParty.CustomerTIN', MyInvoisCode.GENERAL_PUBLIC_TIN, `CustomerParty.CustomerTIN must be ${generalPublicTin} (general public) or NA in a consolidated document`));
      }
      issues.push(...partyIdsRule('CustomerParty', { ...c, CustomerTIN: generalPublicTin }, 'Customer', true));
    } else {
      issues.push(...partyIdsRule('CustomerParty', c, 'Customer'));
    }
    issues.push(...addressRule('CustomerParty', c));
  }
  if (doc.DeliveryDetails) issues.push(...partyIdsRule('DeliveryDetails', doc.DeliveryDetails, 'Recipient'), ...addressRule('DeliveryDetails', doc.DeliveryDetails));
  return issues;
}

/** Every document rule; `raw` is the body as received (to refuse fields the kind does not take). */
export function checkDocument(kind: DocumentKind, doc: DocumentBase, raw?: Record<string, unknown>): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (kind === 'consolidated' && raw && raw.DeliveryDetails !== undefined) {
    issues.push(issue('DeliveryDetails', MyInvoisCode.NOT_ALLOWED, 'DeliveryDetails is not taken in a consolidated document'));
  }
  if (kind === 'self-billed' && raw && raw.CustomerParty !== undefined) {
    issues.push(issue('CustomerParty', MyInvoisCode.NOT_ALLOWED, 'A self-billed document names the seller in SupplierParty; the onboarded supplier is the buyer'));
  }
  issues.push(...headerRule(doc), ...linesRule(doc), ...partiesRule(kind, doc as Body));
  // Totals need well-formed taxes; a broken line is already reported above.
  if (!issues.some((i) => i.path.startsWith('InvoiceLines'))) issues.push(...invoiceTotalRule(doc));
  return issues;
}

/**
 * Rules that need the onboarded supplier: a document charging sales or service tax (01, 02)
 * needs the seller's SST number, tourism tax (03) its TTX number. For a self-billed document
 * the seller is SupplierParty.
 */
export function checkSupplierTaxes(kind: DocumentKind, doc: DocumentBase, supplier: MyInvoisSupplier): FieldIssue[] {
  const types = new Set(doc.InvoiceLines.flatMap((l) => l.LineTaxes.map((t) => t.TaxType)));
  const seller = kind === 'self-billed' ? (doc as Body).SupplierParty : undefined;
  const sst = seller ? (seller.SupplierSST as string | undefined) : supplier.otherIds.sst;
  const ttx = seller ? (seller.SupplierTTX as string | undefined) : supplier.otherIds.ttx;
  const sstPath = seller ? 'SupplierParty.SupplierSST' : 'supplier.other_ids.sst';
  const ttxPath = seller ? 'SupplierParty.SupplierTTX' : 'supplier.other_ids.ttx';
  const issues: FieldIssue[] = [];
  if ((types.has('01') || types.has('02')) && (!sst || sst === 'NA')) {
    issues.push(issue(sstPath, MyInvoisCode.SST_REQUIRED, `Sales or service tax (TaxType 01/02) is charged: the seller's SST registration number is required (${sstPath})`));
  }
  if (types.has('03') && (!ttx || ttx === 'NA')) {
    issues.push(issue(ttxPath, MyInvoisCode.TTX_REQUIRED, `Tourism tax (TaxType 03) is charged: the seller's TTX registration number is required (${ttxPath})`));
  }
  return issues;
}
