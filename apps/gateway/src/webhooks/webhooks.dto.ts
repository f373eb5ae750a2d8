import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsOptional, IsString, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { MAX_URL_LENGTH } from '@einvoice/domain';
import { allWebhookEventNames } from '@einvoice/areas';

/** Every name some area offers: the OpenAPI enum (which ones an area accepts is checked per area). */
const WEBHOOK_EVENT_NAMES = allWebhookEventNames();

/** POST /{area}/einvoice/webhooks: where to send which events (README "Webhooks"). */
export class CreateWebhookBody {
  @JSONSchema({
    description: 'Where to POST the events: an https:// URL whose host is not a private, link-local or loopback address (checked now and at every send; README "Webhooks").',
    example: 'https://erp.example.com/einvoice/webhooks',
  })
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  url!: string;

  @JSONSchema({
    description: 'The events to send, each once: the names the area offers. Peppol areas: `PeppolReceived` (or its synonym `DocumentReceived`), a document received over Peppol; Malaysia also `MyInvoisValid`, `MyInvoisInvalid`, `MyInvoisRejected`, `MyInvoisCancelled`, `MyInvoisRejectedByBuyer`. Another name: 400 at `events[i]`.',
    items: { type: 'string', enum: WEBHOOK_EVENT_NAMES },
    example: ['PeppolReceived'],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_NAMES.length)
  @ArrayUnique()
  // The names themselves are checked per area by the service (`events[i]` FIELD.INVALID_VALUE).
  @IsString({ each: true })
  events!: string[];

  @JSONSchema({ description: 'Your own label for the subscription, shown when you list them.', example: 'ERP inbox' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  description?: string;
}
