/**
 * Parties of the MyInvois UBL tree (LHDN MyInvois SDK, "Invoice v1.0" structure): supplier,
 * buyer and delivery recipient, each reduced first to one {@link PartyData} so both roles of the
 * self-billed document reuse the same element builder.
 */
import { el, leaf, XmlNode } from '../shared/xml';
import type { Address, DeliveryDetails, MyInvoisCustomerParty, SupplierParty } from './schema-document';
import type { MyInvoisSupplier } from './schema-onboarding';
import { generalPublicTin } from './rules';

/** A party as the tree needs it, whatever body or onboarding it came from. */
export interface PartyData {
  readonly name: string;
  readonly tin: string;
  /** `BRN`, `NRIC`, `PASSPORT` or `ARMY` and its value (`BRN` `NA` when none is known). */
  readonly id: { readonly scheme: 'BRN' | 'NRIC' | 'PASSPORT' | 'ARMY'; readonly value: string };
  /** `NA` when not registered. */
  readonly sst: string;
  /** Tourism tax number; rendered for sellers only. */
  readonly ttx?: string;
  /** MSIC code and description; sellers only. */
  readonly msic?: { readonly code: string; readonly description: string };
  readonly address: { readonly city: string; readonly postalZone?: string; readonly state: string; readonly lines: readonly string[]; readonly country: string };
  readonly telephone?: string;
  readonly email?: string;
}

const addressOf = (a: Address): PartyData['address'] => ({
  city: a.CityName, postalZone: a.PostalZone, state: a.CountrySubentityCode, lines: a.AddressLines, country: a.CountryCode,
});

function idOf(p: Record<string, unknown>, prefix: string): PartyData['id'] {
  const pairs = [['BRN', 'BRN'], ['NRIC', 'NRIC'], ['PASSPORT', 'Passport'], ['ARMY', 'ArmyID']] as const;
  for (const [scheme, key] of pairs) {
    const v = p[`${prefix}${key}`];
    if (typeof v === 'string' && v !== '') return { scheme, value: v };
  }
  return { scheme: 'BRN', value: 'NA' };
}

/** The onboarded supplier (seller of an invoice, buyer of a self-billed document). */
export function supplierParty(s: MyInvoisSupplier): PartyData {
  const o = s.otherIds;
  const id: PartyData['id'] = o.brn ? { scheme: 'BRN', value: o.brn } : o.nric ? { scheme: 'NRIC', value: o.nric }
    : o.passport ? { scheme: 'PASSPORT', value: o.passport } : o.army ? { scheme: 'ARMY', value: o.army } : { scheme: 'BRN', value: 'NA' };
  return {
    name: s.registeredName, tin: s.tin, id, sst: o.sst ?? 'NA', ttx: o.ttx ?? 'NA',
    msic: { code: s.msicCode, description: s.industry },
    address: { city: s.city, state: s.state, lines: [s.street], country: s.country },
    telephone: s.contactNumber,
  };
}

/** CustomerParty of an invoice or consolidated document; the general public's `NA` TIN becomes EI00000000010. */
export function customerParty(c: MyInvoisCustomerParty, consolidated: boolean): PartyData {
  return {
    name: c.LegalName, tin: consolidated && c.CustomerTIN === 'NA' ? generalPublicTin : c.CustomerTIN,
    id: idOf(c as unknown as Record<string, unknown>, 'Customer'), sst: c.CustomerSST ?? 'NA',
    address: addressOf(c), telephone: c.Telephone, email: c.Email,
  };
}

/** SupplierParty of a self-billed document (the seller). */
export function sellerParty(s: SupplierParty): PartyData {
  return {
    name: s.LegalName, tin: s.SupplierTIN, id: idOf(s as unknown as Record<string, unknown>, 'Supplier'),
    sst: s.SupplierSST ?? 'NA', ttx: s.SupplierTTX ?? 'NA',
    msic: { code: s.MSICCode ?? '00000', description: s.BusinessActivityDescription ?? 'NOT APPLICABLE' },
    address: addressOf(s), telephone: s.Telephone, email: s.Email,
  };
}

/** DeliveryDetails' recipient. */
export function recipientParty(d: DeliveryDetails): PartyData {
  return { name: d.RecipientName, tin: d.RecipientTIN, id: idOf(d as unknown as Record<string, unknown>, 'Recipient'), sst: d.RecipientSST ?? 'NA', address: addressOf(d) };
}

/** cac:PostalAddress with the MyInvois state code and ISO 3166-1 alpha-3 country. */
export function postalAddress(a: PartyData['address']): XmlNode {
  return el('cac:PostalAddress', {},
    el('cbc:CityName', {}, a.city),
    leaf('cbc:PostalZone', a.postalZone),
    el('cbc:CountrySubentityCode', {}, a.state),
    ...a.lines.map((l) => el('cac:AddressLine', {}, el('cbc:Line', {}, l))),
    el('cac:Country', {}, el('cbc:IdentificationCode', { listID: 'ISO3166-1', listAgencyID: '6' }, a.country)));
}

/** cac:Party: MSIC, TIN / BRN|NRIC|PASSPORT|ARMY / SST (/ TTX for sellers) identifications, address, legal name, contact. */
export function party(p: PartyData, seller: boolean): XmlNode {
  return el('cac:Party', {},
    seller && p.msic ? el('cbc:IndustryClassificationCode', { name: p.msic.description }, p.msic.code) : undefined,
    el('cac:PartyIdentification', {}, el('cbc:ID', { schemeID: 'TIN' }, p.tin)),
    el('cac:PartyIdentification', {}, el('cbc:ID', { schemeID: p.id.scheme }, p.id.value)),
    el('cac:PartyIdentification', {}, el('cbc:ID', { schemeID: 'SST' }, p.sst)),
    seller && p.ttx ? el('cac:PartyIdentification', {}, el('cbc:ID', { schemeID: 'TTX' }, p.ttx)) : undefined,
    postalAddress(p.address),
    el('cac:PartyLegalEntity', {}, el('cbc:RegistrationName', {}, p.name)),
    el('cac:Contact', {}, leaf('cbc:Telephone', p.telephone), leaf('cbc:ElectronicMail', p.email)));
}
