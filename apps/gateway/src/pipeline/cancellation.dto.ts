import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';

/** Longest cancellation reason taken (MyInvois's limit, the tightest of the authorities that cancel). */
export const CANCELLATION_REASON_MAX = 300;

/** `{reason}` of a cancellation through the generic reporting routes. */
export class CancellationBody {
  @ApiProperty({ example: 'Wrong buyer', minLength: 1, maxLength: CANCELLATION_REASON_MAX })
  @IsString()
  @MaxLength(CANCELLATION_REASON_MAX)
  @Matches(/\S/, { message: 'must not be blank' })
  reason!: string;
}
