/**
 * The code lists FIRS serves (`invoice/resources/invoice-types`, `tax-categories`; README.md "Codes"): the
 * sandbox serves these, the rules accept these. FIRS's invoice types are UNTDID 1001 codes.
 */
export const INVOICE_TYPES: Readonly<Record<string, string>> = {
  '380': 'Commercial Invoice',
  '381': 'Credit Note',
  '383': 'Debit Note',
  '384': 'Corrected Invoice',
  '385': 'Consolidated Invoice',
  '386': 'Prepayment Invoice',
  '389': 'Self-billed Invoice',
  '390': 'Delcredere Invoice',
  '393': 'Factored Invoice',
  '394': 'Lease Invoice',
  '395': 'Consignment Invoice',
  '396': 'Factored Credit Note',
};

export const TAX_CATEGORIES: readonly string[] = [
  'STANDARD_VAT', 'REDUCED_VAT', 'ZERO_VAT', 'EXEMPTED',
  'STANDARD_GST', 'REDUCED_GST', 'ZERO_GST',
  'STATE_SALES_TAX', 'LOCAL_SALES_TAX', 'ALCOHOL_EXCISE_TAX', 'EXCISE_TAX', 'CUSTOMS_DUTY',
];
