import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

/**
 * Longest reason taken: MyInvois's limit (SDK "03 cancel document", "04 reject document": reason
 * mandatory, 300 characters at most), the tightest of the authorities that take one.
 */
export const REASON_MAX = 300;

/** `{reason}` of a request about a document: its cancellation (every area that cancels), its buyer's rejection (MyInvois). */
export class ReasonBody {
  @ApiProperty({ example: 'Wrong buyer', minLength: 1, maxLength: REASON_MAX })
  @JSONSchema({ description: 'Why: sent to the authority with the cancellation or rejection (MyInvois: `reason`, mandatory), not blank.', example: 'Wrong buyer' })
  @IsString()
  @MaxLength(REASON_MAX)
  @Matches(/\S/, { message: 'must not be blank' })
  reason!: string;
}
