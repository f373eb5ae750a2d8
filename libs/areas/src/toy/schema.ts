/**
 * Request bodies of the toy area (README.md). A real area's schema cites its seed section; the toy's
 * exists to show the shape one takes: class-validator DTOs built with the shared field decorators.
 */
import { Matches } from 'class-validator';
import { DateText, Num, Text } from '../shared/fields';

/** `POST /toy/einvoice/onboard`. */
export class ToyOnboardingBody {
  @Text(200) registered_name!: string;
  /** The toy authority's taxpayer number: `TOY` and six digits. */
  @Text(9)
  @Matches(/^TOY\d{6}$/, { message: 'must be TOY followed by six digits' })
  tax_id!: string;
}

/** `POST /toy/einvoice/documents`. */
export class ToyDocumentBody {
  @Text(50) ID!: string;
  @DateText() IssueDate!: string;
  /** Total including tax, at most two decimals, more than zero. */
  @Num() Total!: number;
  @Text(300, { optional: true }) Note?: string;
}
