import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsOptional, IsString, MaxLength } from 'class-validator';
import { MAX_URL_LENGTH } from '@einvoice/domain';
import { allWebhookEventNames } from '@einvoice/areas';

/** Every name some area offers: the OpenAPI enum (which ones an area accepts is checked per area). */
const WEBHOOK_EVENT_NAMES = allWebhookEventNames();

/** POST /{area}/einvoice/webhooks: where to send which events (README "Webhooks"). */
export class CreateWebhookBody {
  @ApiProperty({ example: 'https://erp.example.com/einvoice/webhooks', description: 'https:// only (README "Webhooks": URL rule)' })
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  url!: string;

  @ApiProperty({
    example: ['PeppolReceived'],
    enum: WEBHOOK_EVENT_NAMES,
    isArray: true,
    description: 'The names the area offers (area registry): Peppol areas PeppolReceived (or its synonym DocumentReceived); Malaysia also MyInvoisValid, MyInvoisInvalid, MyInvoisRejected, MyInvoisCancelled, MyInvoisRejectedByBuyer (README "Webhooks")',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_NAMES.length)
  @ArrayUnique()
  // The names themselves are checked per area by the service (`events[i]` FIELD.INVALID_VALUE).
  @IsString({ each: true })
  events!: string[];

  @ApiPropertyOptional({ example: 'ERP inbox', maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  description?: string;
}
