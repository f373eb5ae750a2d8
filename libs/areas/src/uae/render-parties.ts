/**
 * The parties of a PINT AE document. The issuer (the participant, from its registration, with the
 * body's `issuing_party` overrides) and the receiving party are first put in one neutral shape,
 * so that a self-billed document (389, 261) only swaps which of them is seller and which buyer.
 */
import type { UblAddress, UblIdentifier, UblOtherParty, UblParty } from '../ubl';
import { stated } from '../ubl';
import type { UaeDocument } from './document';

/** The participant issuing the document, as registered (onboarding). */
export interface UaeIssuer {
  /** `0235:1234567890`. */
  readonly peppolId: string;
  readonly legalName: string;
  readonly trn?: string;
  readonly legalId?: { readonly id: string; readonly scheme: 'TL' | 'EID' | 'PAS' | 'CD'; readonly authority?: string };
  readonly streetAddress: string;
  readonly city: string;
  readonly emiratesCode: string;
  readonly countryCode: 'AE';
}

/** Who a party is, whatever its role. */
interface PartyFacts {
  readonly peppolId: string;
  readonly legalName: string;
  readonly tradingName?: string;
  readonly trn?: string;
  readonly legalId?: { readonly id: string; readonly scheme?: string; readonly authority?: string };
  readonly identifiers?: readonly { readonly id: string; readonly scheme_id?: string }[];
  readonly address: UblAddress;
}

/** The issuer's registration, overridden field by field by `issuing_party` (never its Peppol id or legal name). */
function issuerFacts(issuer: UaeIssuer, override: UaeDocument['issuing_party']): PartyFacts {
  const o = override ?? {};
  return {
    peppolId: issuer.peppolId,
    legalName: issuer.legalName,
    tradingName: o.trading_name,
    trn: o.trn ?? issuer.trn,
    legalId: o.legal_id ?? issuer.legalId,
    address: {
      street: o.street_address ?? issuer.streetAddress,
      city: o.city ?? issuer.city,
      countrySubentity: o.emirates_code ?? issuer.emiratesCode,
      country: o.country_code ?? issuer.countryCode,
    },
  };
}

function receiverFacts(p: UaeDocument['receiving_party']): PartyFacts {
  return {
    peppolId: p.peppol_id,
    legalName: p.legal_name,
    trn: p.trn,
    legalId: p.legal_id,
    identifiers: p.identifiers,
    // Issue 10: an absent country is the UAE; abroad, emirates_code holds the foreign subdivision.
    address: { street: p.street_address, city: p.city, countrySubentity: p.emirates_code, country: p.country_code ?? 'AE' },
  };
}

/** `0235:1234567890` → EndpointID 1234567890, schemeID 0235 (IBT-034/049). */
export function endpointOf(peppolId: string): UblIdentifier {
  const at = peppolId.indexOf(':');
  return { schemeId: peppolId.slice(0, at), id: peppolId.slice(at + 1) };
}

/** Legal registration (IBT-030/047) with its type and authority or passport country (BTAE-15/16, 11/12, 18/19). */
export function legalCompanyId(l: PartyFacts['legalId']): UblIdentifier | undefined {
  return l && { id: l.id, schemeAgencyId: l.scheme, schemeAgencyName: stated(l.authority) };
}

/** The TRN is the party's VAT identifier (IBT-031/048, PartyTaxScheme VAT). */
export const vatScheme = (trn: string | undefined) => (trn ? [{ companyId: trn, taxScheme: 'VAT' }] : []);

function party(f: PartyFacts): UblParty {
  return {
    endpoint: endpointOf(f.peppolId),
    identifications: f.identifiers?.map((i) => ({ id: i.id, schemeId: i.scheme_id })),
    name: stated(f.tradingName),
    address: f.address,
    taxSchemes: vatScheme(f.trn),
    legalEntity: { registrationName: f.legalName, companyId: legalCompanyId(f.legalId) },
  };
}

/** Seller and buyer: the issuer sells, unless the document is self-billed (seed "Parties"). */
export function uaeParties(d: UaeDocument, issuer: UaeIssuer, selfBilled: boolean): { seller: UblParty; buyer: UblParty } {
  const issuing = party(issuerFacts(issuer, d.issuing_party));
  const receiving = party(receiverFacts(d.receiving_party));
  return selfBilled ? { seller: receiving, buyer: issuing } : { seller: issuing, buyer: receiving };
}

/** An address of the body's four parts, or none when nothing of it is sent. */
function addressOf(a: { street_address?: string; city?: string; emirates_code?: string; country_code?: string }): UblAddress | undefined {
  if (a.country_code === undefined && a.street_address === undefined && a.city === undefined && a.emirates_code === undefined) return undefined;
  return { street: a.street_address, city: a.city, countrySubentity: a.emirates_code, country: a.country_code ?? 'AE' };
}

/** Payee (IBG-10), tax representative (IBG-11), free-zone beneficiary (BTAE-01) and principal (BTAE-14). */
export function uaeOtherParties(d: UaeDocument): { payee?: UblOtherParty; taxRepresentative?: UblOtherParty; buyerCustomer?: UblOtherParty; sellerSupplier?: UblOtherParty } {
  const p = d.payee_party;
  const r = d.tax_representative;
  return {
    payee: p && { identifications: p.identifiers?.map((i) => ({ id: i.id, schemeId: i.scheme_id })), name: p.name, legalCompanyId: p.legal_id && { id: p.legal_id.id } },
    taxRepresentative: r && { name: r.name, address: addressOf(r), taxSchemes: vatScheme(r.trn) },
    buyerCustomer: d.fz_beneficiary_id ? { identifications: [{ id: d.fz_beneficiary_id }] } : undefined,
    sellerSupplier: d.principal_id ? { identifications: [{ id: d.principal_id }] } : undefined,
  };
}

/** Deliver-to information (IBG-13): location id, party name, the four-part address. */
export function uaeDelivery(d: UaeDocument) {
  const v = d.delivery;
  if (!v) return undefined;
  return {
    date: v.date,
    locationId: v.location_id ? { id: v.location_id } : undefined,
    partyName: v.party_name,
    address: v.address && addressOf(v.address),
  };
}
