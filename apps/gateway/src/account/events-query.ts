import { ACCOUNT_EVENT_TYPES, AppError, type AccountEventType, type FieldIssue, issue, validationError } from '@einvoice/domain';
import { type FeedPosition, decodeFeedCursor } from '@einvoice/domain/infrastructure';
import { areas } from '@einvoice/areas';
import { queryReader } from './page';

/** `GET /v1/events`'s page size: 1–500, 100 when absent (issue #48). */
export const DEFAULT_EVENTS_LIMIT = 100;
export const MAX_EVENTS_LIMIT = 500;

/** The query of `GET /v1/events` (docs/account-api.md "Events"), validated. */
export interface EventsQuery {
  /** The position the page starts after; undefined: from the oldest event kept. */
  readonly after?: FeedPosition;
  /** The cursor as given, answered back as `next_cursor` by a page that moved nowhere. */
  readonly cursor?: string;
  readonly types?: readonly AccountEventType[];
  readonly areas?: readonly string[];
  readonly supplierId?: string;
  readonly limit: number;
}

const PARAMETERS = ['after', 'type', 'area', 'supplier_id', 'limit'];

/** The query, or the one 400 listing every bad parameter (an unknown one too: a misspelt filter would silently widen the feed). */
export function eventsQuery(query: Readonly<Record<string, unknown>>): EventsQuery {
  const issues: FieldIssue[] = [];
  const { text, supplierId: readSupplierId } = queryReader(query, issues);
  /** A comma-separated list of allowed values, each once. */
  const list = (name: string, allowed: readonly string[], normalise: (value: string) => string): string[] | undefined => {
    const values = text(name)?.split(',').map((value) => normalise(value.trim()));
    if (!values) return undefined;
    const unknown = values.filter((value) => !allowed.includes(value));
    if (unknown.length) issues.push(issue(name, 'FIELD.INVALID_VALUE', `${name} is a comma-separated list of ${allowed.join(', ')}; ${unknown.map((v) => JSON.stringify(v)).join(', ')} is not one.`));
    return [...new Set(values)];
  };

  for (const name of Object.keys(query)) {
    if (!PARAMETERS.includes(name)) issues.push(issue(name, 'FIELD.INVALID_VALUE', `${name} is not a parameter of this feed; it takes ${PARAMETERS.join(', ')}.`));
  }
  let limit = DEFAULT_EVENTS_LIMIT;
  const rawLimit = text('limit');
  if (rawLimit !== undefined) {
    if (!/^\d{1,4}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > MAX_EVENTS_LIMIT) {
      issues.push(issue('limit', 'FIELD.INVALID_VALUE', `limit is a whole number from 1 to ${MAX_EVENTS_LIMIT}; it is ${JSON.stringify(rawLimit)}.`));
    } else {
      limit = Number(rawLimit);
    }
  }
  const cursor = text('after');
  let after: FeedPosition | undefined;
  if (cursor !== undefined) {
    try {
      after = decodeFeedCursor(cursor, 'after');
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      issues.push(...error.issues);
    }
  }
  const types = list('type', ACCOUNT_EVENT_TYPES, (value) => value.toLowerCase()) as AccountEventType[] | undefined;
  const areaList = list('area', areas.map((area) => area.code), (value) => value.toLowerCase());
  const supplierId = readSupplierId();
  if (issues.length) throw validationError(issues, 'The events query is invalid.');
  return { after, cursor, types, areas: areaList, supplierId: supplierId?.toLowerCase(), limit };
}
