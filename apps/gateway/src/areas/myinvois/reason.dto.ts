import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { myinvois } from '@einvoice/areas';

const { REJECTION_REASON_MAX } = myinvois;

/**
 * `{reason}` of Cancel Document and Reject Document (SDK "03 cancel document", "04 reject
 * document": `PUT /api/v1.0/documents/state/{uuid}/state`, reason mandatory, 300 characters at most).
 */
export class MyInvoisReasonBody {
  @ApiProperty({ example: 'Goods not received', minLength: 1, maxLength: REJECTION_REASON_MAX })
  @IsString()
  @MaxLength(REJECTION_REASON_MAX)
  @Matches(/\S/, { message: 'must not be blank' })
  reason!: string;
}
