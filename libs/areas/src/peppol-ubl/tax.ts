/**
 * TaxType (client vocabulary) → tax category of the area. BE/DE: UNCL5305 as Peppol BIS 3
 * uses it; SG: the PINT SG GST categories (BR-CL-17/18-GST-SG list: SR, SRCA-S, SRCA-C, ZR,
 * ES33, ESN33, DS, OS, NA, NG, SRRC, SROVR-RS, SROVR-LVG, SRLVG).
 */
import type { TaxTypeName } from './schema';

/** What a tax category demands of the document. */
export interface TaxCategory {
  /** BT-151 / BT-118 code. */
  readonly code: string;
  /** `positive`: rate > 0 (BR-S-05); `zero`: rate = 0 (BR-Z-05, BR-E-05...); `none`: rate 0 and not rendered (BR-O-05). */
  readonly rate: 'positive' | 'zero' | 'none';
  /**
   * BT-120/121. `forbidden`: BR-S-10, BR-Z-10; `required`: the client must give the text (BR-E-10);
   * otherwise the default VATEX code and text rendered when the client gives none.
   */
  readonly exemption: 'forbidden' | 'optional' | 'required' | { readonly code: string; readonly text: string };
  /** Needs the seller's VAT/GST identifier (BR-S-02, BR-AE-02, BR-105-GST-SG...). */
  readonly sellerVat: 'required' | 'forbidden' | 'optional';
  /** Needs the buyer's VAT identifier (BR-AE-02, BR-IC-02). */
  readonly buyerVat: boolean;
  /** Must be the only category of the document (BR-O-11, BR-NG-11-GST-SG). */
  readonly exclusive: boolean;
  /** Needs a delivery date and deliver-to country (BR-IC-11, BR-IC-12). */
  readonly delivery: boolean;
}

const S: TaxCategory = { code: 'S', rate: 'positive', exemption: 'forbidden', sellerVat: 'required', buyerVat: false, exclusive: false, delivery: false };

/** BE and DE: Peppol BIS Billing 3.0, UNCL5305. */
export const bisCategories: Partial<Record<TaxTypeName, TaxCategory>> = {
  standard: S,
  reduced: S,
  zero: { ...S, code: 'Z', rate: 'zero' },
  exempt: { ...S, code: 'E', rate: 'zero', exemption: 'required' },
  reverse_charge: { ...S, code: 'AE', rate: 'zero', buyerVat: true, exemption: { code: 'VATEX-EU-AE', text: 'Reverse charge' } },
  intra_community: { ...S, code: 'K', rate: 'zero', buyerVat: true, delivery: true, exemption: { code: 'VATEX-EU-IC', text: 'Intra-Community supply' } },
  export: { ...S, code: 'G', rate: 'zero', exemption: { code: 'VATEX-EU-G', text: 'Export outside the EU' } },
  outside_scope: { ...S, code: 'O', rate: 'none', sellerVat: 'forbidden', exclusive: true, exemption: { code: 'VATEX-EU-O', text: 'Not subject to VAT' } },
};

const SR: TaxCategory = { code: 'SR', rate: 'positive', exemption: 'forbidden', sellerVat: 'required', buyerVat: false, exclusive: false, delivery: false };

/** SG: PINT SG 1.4.1. Exports are zero-rated in Singapore, hence ZR. */
export const sgCategories: Partial<Record<TaxTypeName, TaxCategory>> = {
  standard: SR,
  zero: { ...SR, code: 'ZR', rate: 'zero' },
  export: { ...SR, code: 'ZR', rate: 'zero' },
  // Exempt supplies under GST (General and Exempt Supplies) Regulations 33.
  exempt: { ...SR, code: 'ES33', rate: 'zero', sellerVat: 'optional', exemption: 'optional' },
  outside_scope: { ...SR, code: 'OS', rate: 'zero', sellerVat: 'optional', exemption: 'optional' },
  // Supplier not registered for GST: no GST identifier anywhere (BR-NG-02), only category (BR-NG-11).
  not_registered: { ...SR, code: 'NG', rate: 'zero', sellerVat: 'forbidden', exclusive: true },
};

/** EU member states (VAT area) for intra-Community and export rules; GR is written EL in VAT ids only. */
export const euCountries: ReadonlySet<string> = new Set([
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT',
  'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
]);

/** ISO 4217 active codes (2024). A data list rather than a library: it changes once in years. */
export const currencyCodes: ReadonlySet<string> = new Set(`AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD
BND BOB BOV BRL BSD BTN BWP BYN BZD CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR
FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD
KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN
PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY
TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VES VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XDR XOF XPD XPF XPT XSU XTS
XUA XXX YER ZAR ZMW ZWG ZWL`.split(/\s+/));
