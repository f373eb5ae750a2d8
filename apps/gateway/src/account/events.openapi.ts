/**
 * How the OpenAPI document shows `GET /v1/events` (#48): its answer, whose items are the catalogue's
 * schemas (`#/components/schemas/AccountEvent`, libs/domain/src/account/event-schemas.ts, listed under
 * the document's components by http/openapi.ts), with an example made of the sample events.
 */
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { sampleAccountEvent } from '@einvoice/domain';
import { encodeFeedCursor } from '@einvoice/domain/infrastructure';
import { nullable, statusAnswer } from '../http/openapi-answers';
import { accountSuccessStatus } from './documents.openapi';

/** A cursor as the feed hands them out (the position of a Polish document's report, say). */
export const eventsCursorExample = encodeFeedCursor({ xid: '48213', seq: '1187' });

export const eventsPageExample = {
  status: 'success',
  data: [sampleAccountEvent('document.accepted'), sampleAccountEvent('document.reported'), sampleAccountEvent('document.delivered')],
  next_cursor: eventsCursorExample,
};

/** `GET /v1/events`'s 200. */
export const eventsPageSchema: SchemaObject = statusAnswer(
  accountSuccessStatus,
  {
    data: {
      type: 'array',
      description: 'The events after the cursor, oldest first (in the order their transactions committed); fewer than `limit`, or none, when the feed is caught up or a filtered page looked at its share of events.',
      items: { $ref: '#/components/schemas/AccountEvent' },
      example: eventsPageExample.data,
    },
    next_cursor: nullable(
      { type: 'string' },
      {
        description:
          'Give it as `after` to read on. After a full page: the last event\'s position. Otherwise the position past every event this page looked at (a filtered page may answer fewer events and still move on); the cursor you gave when there was nothing new; null only when the account has no event yet and no cursor was given.',
        example: eventsCursorExample,
      },
    ),
  },
  eventsPageExample,
);
