import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { MAX_URL_LENGTH, WEBHOOK_EVENT_TYPES } from '@einvoice/domain';

/** POST /{area}/einvoice/webhooks: where to send which events (README "Webhooks"). */
export class CreateWebhookBody {
  @ApiProperty({ example: 'https://erp.example.com/einvoice/webhooks', description: 'https:// only (README "Webhooks": URL rule)' })
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  url!: string;

  @ApiProperty({ example: ['DocumentReceived'], enum: WEBHOOK_EVENT_TYPES, isArray: true })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  events!: string[];

  @ApiPropertyOptional({ example: 'ERP inbox', maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  description?: string;
}
