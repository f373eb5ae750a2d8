import { type FieldIssue, issue } from '@einvoice/domain';
import { dec } from '../shared/money';
import type { ToyDocumentBody } from './schema';

/** The toy area's business rules (rule ids `TOY-R-nnn`, as a real area cites its official ones). */
export function checkToyDocument(body: ToyDocumentBody): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const total = dec(body.Total);
  if (total.lte(0)) issues.push(issue('Total', 'TOY-R-001', 'Total must be more than zero (TOY-R-001).'));
  if (total.decimalPlaces() > 2) issues.push(issue('Total', 'TOY-R-002', 'Total has at most two decimals (TOY-R-002).'));
  return issues;
}
