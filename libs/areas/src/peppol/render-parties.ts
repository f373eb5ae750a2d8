/** Seller (BG-4) and buyer (BG-7) parties of the UBL document. */
import { el, leaf, XmlNode } from '../shared/xml';
import { identifierSchemes, resolveIdentifier } from './identifiers';
import type { AreaProfile } from './profiles';
import type { CustomerParty, Supplier } from './schema';

/** What the document's categories allow to be shown about tax ids (BR-O-02, BR-NG-02-GST-SG). */
export interface TaxIdPolicy {
  readonly sellerVat: boolean;
  readonly buyerVat: boolean;
}

function canonical(scheme: string, id: string): string {
  return identifierSchemes[scheme]?.normalize(id) ?? id;
}

/** The supplier's VAT/GST number as BT-31 wants it; SG falls back to the UEN (IRAS issues UEN-based GST numbers). */
export function sellerVatId(p: AreaProfile, supplier: Supplier): string | undefined {
  const vat = supplier.identifiers.find((i) => identifierSchemes[i.scheme]?.vat);
  if (vat) return canonical(vat.scheme, vat.id);
  const uen = supplier.identifiers.find((i) => i.scheme === 'SG:UEN');
  return p.code === 'sg' && uen ? canonical(uen.scheme, uen.id) : undefined;
}

/** BT-34: the first onboarded identifier in the area's preferred order. */
export function sellerEndpoint(p: AreaProfile, supplier: Supplier): { scheme: string; id: string } {
  for (const scheme of p.identifierSchemes) {
    const found = supplier.identifiers.find((i) => i.scheme === scheme && scheme !== 'SG:GST');
    if (found) return found;
  }
  throw new RangeError('The supplier has no identifier usable as a Peppol endpoint');
}

/** cac:AccountingSupplierParty. */
export function renderSeller(p: AreaProfile, supplier: Supplier, policy: TaxIdPolicy): XmlNode {
  const endpoint = sellerEndpoint(p, supplier);
  const ep = resolveIdentifier(endpoint.scheme, endpoint.id);
  const legal = supplier.identifiers.find((i) => identifierSchemes[i.scheme]?.legal);
  const legalScheme = legal ? identifierSchemes[legal.scheme] : undefined;
  // BT-29: identifiers that are neither tax nor legal ids (the Leitweg-ID) identify the seller.
  const others = supplier.identifiers.filter((i) => { const s = identifierSchemes[i.scheme]; return s && !s.vat && !s.legal; });
  const vat = policy.sellerVat ? sellerVatId(p, supplier) : undefined;
  return el('cac:AccountingSupplierParty', {}, el('cac:Party', {},
    el('cbc:EndpointID', { schemeID: ep?.icd }, ep?.value ?? endpoint.id),
    ...others.map((i) => el('cac:PartyIdentification', {}, el('cbc:ID', { schemeID: identifierSchemes[i.scheme].icd }, canonical(i.scheme, i.id)))),
    el('cac:PostalAddress', {},
      leaf('cbc:StreetName', supplier.street), // BT-35
      leaf('cbc:CityName', supplier.city), // BT-37
      leaf('cbc:PostalZone', supplier.postalCode), // BT-38
      leaf('cbc:CountrySubentity', supplier.county === 'NA' ? undefined : supplier.county), // BT-39
      el('cac:Country', {}, el('cbc:IdentificationCode', {}, supplier.country))), // BT-40
    vat && el('cac:PartyTaxScheme', {}, el('cbc:CompanyID', {}, vat), el('cac:TaxScheme', {}, el('cbc:ID', {}, p.taxSchemeId))), // BT-31
    el('cac:PartyLegalEntity', {},
      el('cbc:RegistrationName', {}, supplier.registeredName), // BT-27
      // BT-30; the KBO number carries its ICD (0208), the UEN is written bare as in the PINT SG examples.
      legal && legalScheme && el('cbc:CompanyID', { schemeID: p.code === 'sg' ? undefined : legalScheme.icd }, canonical(legal.scheme, legal.id))),
    el('cac:Contact', {},
      leaf('cbc:Name', supplier.contactName), // BT-41
      leaf('cbc:Telephone', supplier.contactNumber), // BT-42
      leaf('cbc:ElectronicMail', supplier.contactEmail)))); // BT-43
}

/** cac:AccountingCustomerParty; Identifiers[0] is the buyer's Peppol address (BT-49). */
export function renderBuyer(p: AreaProfile, customer: CustomerParty, policy: TaxIdPolicy): XmlNode {
  const resolved = customer.Identifiers.map((i) => ({ ...i, r: resolveIdentifier(i.Scheme, i.ID) }));
  const [first] = resolved;
  const vat = policy.buyerVat
    ? resolved.find((i) => i.r?.vat && (p.taxSchemeId === 'VAT' ? i.Scheme !== 'SG:GST' : i.Scheme === 'SG:GST'))
    : undefined;
  const legal = resolved.find((i) => i.r?.legal);
  return el('cac:AccountingCustomerParty', {}, el('cac:Party', {},
    el('cbc:EndpointID', { schemeID: first.r?.icd ?? first.Scheme }, first.r?.value ?? first.ID),
    el('cac:PostalAddress', {},
      leaf('cbc:StreetName', customer.address.Street), // BT-50
      leaf('cbc:CityName', customer.address.City), // BT-52
      leaf('cbc:PostalZone', customer.address.ZipCode), // BT-53
      el('cac:Country', {}, el('cbc:IdentificationCode', {}, customer.address.Country))), // BT-55
    vat && el('cac:PartyTaxScheme', {}, el('cbc:CompanyID', {}, vat.r?.value ?? vat.ID), el('cac:TaxScheme', {}, el('cbc:ID', {}, p.taxSchemeId))), // BT-48
    el('cac:PartyLegalEntity', {},
      el('cbc:RegistrationName', {}, customer.RegisteredName), // BT-44
      legal?.r && el('cbc:CompanyID', { schemeID: p.code === 'sg' ? undefined : legal.r.icd }, legal.r.value.replace(/^SGUEN/, ''))))); // BT-47
}
