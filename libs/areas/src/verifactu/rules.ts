/**
 * The Spanish area's rules beyond the schema (README.md "Rules"): each tax line in one spelling,
 * the recipient where the invoice type needs one, the total against its lines, the rectify body's
 * issuer against the participant. Returns every issue, the field named by its path.
 */
import { type FieldIssue, issue } from '@einvoice/domain';
import { Dec, dec, formatAmount, sum } from '../shared/money';
import { isValidNif, normalizeNif } from './nif';
import type { TaxLine } from './record';
import type { VerifactuRectifyBody, VerifactuReportBody } from './schema';

/** How far `total_amount` may be from the sum of bases and charged tax: the AEAT's own tolerance on ImporteTotal. */
export const TOTAL_TOLERANCE = new Dec('0.02');

export interface CheckedRecord {
  readonly taxLines: TaxLine[];
  readonly taxTotal: string;
  readonly total: string;
}

export function checkRecord(body: VerifactuReportBody | VerifactuRectifyBody, issuer: { nif: string; name: string }): { issues: FieldIssue[]; checked: CheckedRecord } {
  const issues: FieldIssue[] = [];
  const taxLines: TaxLine[] = body.taxlines.map((line, index) => {
    const at = `taxlines[${index}]`;
    const bases = [line.tax_base, line.taxable_base].filter((v) => v !== undefined);
    const charged = [line.repercutida_quota, line.charged_tax].filter((v) => v !== undefined);
    if (bases.length !== 1) issues.push(issue(`${at}.tax_base`, 'VERIFACTU.TAX_BASE', 'Give the base once: tax_base or taxable_base.'));
    const taxedLine = !line.exemption && (line.qualification ?? 'S1') === 'S1';
    // A line that charges no tax (exempt, S2, N1, N2) may leave the tax charged out.
    if (charged.length > 1 || (charged.length === 0 && taxedLine)) issues.push(issue(`${at}.repercutida_quota`, 'VERIFACTU.CHARGED_TAX', 'Give the tax charged once: repercutida_quota or charged_tax.'));
    const rate = dec(line.tax_rate);
    if (rate.isNegative() || rate.greaterThan(100)) issues.push(issue(`${at}.tax_rate`, 'VERIFACTU.TAX_RATE', 'tax_rate is a percentage from 0 to 100.'));
    if (line.exemption && line.qualification) issues.push(issue(`${at}.qualification`, 'VERIFACTU.EXEMPT_QUALIFIED', 'An exempt line (exemption) has no qualification.'));
    // Exempt, reverse-charge (S2) and not-subject lines charge no tax (AEAT: CuotaRepercutida 0 or absent).
    if (!taxedLine && charged.length === 1 && !dec(charged[0] as number | string).isZero()) {
      issues.push(issue(`${at}.repercutida_quota`, 'VERIFACTU.NO_TAX_CHARGED', `A line ${line.exemption ? `exempt (${line.exemption})` : `qualified ${line.qualification}`} charges no tax: 0.`));
    }
    return {
      base: formatAmount(bases[0] ?? 0),
      rate: formatAmount(rate),
      charged: formatAmount(charged[0] ?? 0),
      ...(line.qualification ? { qualification: line.qualification } : {}),
      ...(line.exemption ? { exemption: line.exemption } : {}),
    };
  });
  if (taxLines.length > 12) issues.push(issue('taxlines', 'VERIFACTU.TOO_MANY_LINES', 'At most 12 tax lines (AEAT Desglose: 12 DetalleDesglose).'));
  const taxTotal = sum(taxLines.map((l) => l.charged));
  const expected = sum(taxLines.map((l) => l.base)).plus(taxTotal);
  const total = dec(body.total_amount);
  if (total.minus(expected).abs().greaterThan(TOTAL_TOLERANCE)) {
    issues.push(issue('total_amount', 'VERIFACTU.TOTAL_MISMATCH', `total_amount must be the sum of the bases and the tax charged: ${formatAmount(expected)} (±${TOTAL_TOLERANCE.toFixed(2)}).`));
  }
  const needsRecipient = body.invoice_type !== 'F2';
  if (needsRecipient && !body.recipient) issues.push(issue('recipient', 'VERIFACTU.RECIPIENT_REQUIRED', `An ${body.invoice_type} invoice names its recipient (nif, name); only F2 (simplified) has none.`));
  if (!needsRecipient && body.recipient) issues.push(issue('recipient', 'VERIFACTU.RECIPIENT_FORBIDDEN', 'An F2 (simplified) invoice names no recipient.'));
  if (body.recipient && !isValidNif(body.recipient.nif)) issues.push(issue('recipient.nif', 'VERIFACTU.NIF', 'recipient.nif is not a valid Spanish NIF (its control character does not match).'));
  if ('nif' in body && body.invoice_type === 'R1') {
    if (normalizeNif(body.nif) !== issuer.nif) issues.push(issue('nif', 'VERIFACTU.ISSUER_MISMATCH', 'nif must be the participant\'s own NIF.'));
    if (body.name.trim() !== issuer.name) issues.push(issue('name', 'VERIFACTU.ISSUER_MISMATCH', 'name must be the participant\'s name as onboarded.'));
  }
  return { issues, checked: { taxLines, taxTotal: formatAmount(taxTotal), total: formatAmount(total) } };
}
