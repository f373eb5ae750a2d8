import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { AREA_CODES } from '@einvoice/areas';
import { ACCOUNT_EVENT_TYPES, MAX_URL_LENGTH } from '@einvoice/domain';

/** Suppliers one endpoint may name (an ERP with a thousand suppliers names them all, or leaves it out). */
export const MAX_SUPPLIER_IDS = 1000;

const URL_DESCRIPTION =
  'Where to POST the events: an https:// URL whose host is not a private, link-local or loopback address (checked now and at every send; README "Webhooks").';
const EVENTS_DESCRIPTION =
  'The event types to send, each once (README "Events"); leave it out for every type, types added later included. Another name: 400 `FIELD.INVALID_VALUE` at `events[i]`.';
const AREAS_DESCRIPTION = `Only documents of these areas (${AREA_CODES.join(', ')}); leave it out for every area. Another code: 400 \`FIELD.INVALID_VALUE\` at \`areas[i]\`.`;
const SUPPLIERS_DESCRIPTION =
  `Only documents of these suppliers of your account (the ids onboarding answered, at most ${MAX_SUPPLIER_IDS}); leave it out for every supplier, suppliers onboarded later included. ` +
  'An id that is not one of your suppliers: 400 `FIELD.INVALID_VALUE` at `supplier_ids[i]`.';

/** `POST /v1/webhooks` (#48, README "Webhooks (account-wide)"). */
export class CreateAccountWebhookBody {
  @JSONSchema({ description: URL_DESCRIPTION, example: 'https://erp.example.com/einvoice/events' })
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  url!: string;

  @JSONSchema({ description: EVENTS_DESCRIPTION, items: { type: 'string', enum: [...ACCOUNT_EVENT_TYPES] }, example: ['document.reported', 'document.report_failed'] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(ACCOUNT_EVENT_TYPES.length)
  @ArrayUnique()
  // The names themselves are checked by the service, each at `events[i]`.
  @IsString({ each: true })
  events?: string[];

  @JSONSchema({ description: AREAS_DESCRIPTION, example: ['pl', 'es'] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @ArrayUnique()
  @IsString({ each: true })
  areas?: string[];

  @JSONSchema({ description: SUPPLIERS_DESCRIPTION, example: ['0f8e8b1c-6a57-4d57-9d5e-2f0f3c1d9a11'] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_SUPPLIER_IDS)
  @ArrayUnique()
  @IsString({ each: true })
  supplier_ids?: string[];

  @JSONSchema({ description: 'Your own label for the endpoint, shown when you list them.', example: 'ERP: KSeF and VeriFactu outcomes' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  description?: string;
}

/**
 * `PATCH /v1/webhooks/{id}`: what is sent changes, the rest stays. `null` sets a filter back to "all" (and removes
 * the description); the service reads those from the raw body, since validation drops null members.
 */
export class UpdateAccountWebhookBody {
  @JSONSchema({ description: URL_DESCRIPTION, example: 'https://erp.example.com/einvoice/events' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  url?: string;

  @JSONSchema({ description: `${EVENTS_DESCRIPTION} \`null\`: every type again.`, items: { type: 'string', enum: [...ACCOUNT_EVENT_TYPES] }, example: ['document.reported'] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(ACCOUNT_EVENT_TYPES.length)
  @ArrayUnique()
  @IsString({ each: true })
  events?: string[];

  @JSONSchema({ description: `${AREAS_DESCRIPTION} \`null\`: every area again.`, example: ['pl'] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @ArrayUnique()
  @IsString({ each: true })
  areas?: string[];

  @JSONSchema({ description: `${SUPPLIERS_DESCRIPTION} \`null\`: every supplier again.`, example: ['0f8e8b1c-6a57-4d57-9d5e-2f0f3c1d9a11'] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_SUPPLIER_IDS)
  @ArrayUnique()
  @IsString({ each: true })
  supplier_ids?: string[];

  @JSONSchema({ description: 'Your own label for the endpoint; `null` removes it.', example: 'ERP: KSeF outcomes' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  description?: string;

  @JSONSchema({
    description: '`disabled`: nothing more is sent to it until `enabled` (its `disabled_reason` reads `disabled by the caller`); `enabled` also enables an endpoint disabled after failing for its whole retry window.',
    enum: ['enabled', 'disabled'],
    example: 'disabled',
  })
  @IsOptional()
  @IsIn(['enabled', 'disabled'])
  status?: 'enabled' | 'disabled';
}

/** `POST /v1/webhooks/{id}/test`. */
export class TestAccountWebhookBody {
  @JSONSchema({ description: 'The type of the sample event to send now, one of the catalogue (README "Events").', enum: [...ACCOUNT_EVENT_TYPES], example: 'document.reported' })
  @IsString()
  @IsIn([...ACCOUNT_EVENT_TYPES])
  type!: string;
}
