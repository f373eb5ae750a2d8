import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { validationError } from '@einvoice/domain';
import { jsonValueIssues } from './json-guards';

/**
 * Path and query parameters under the rules of JSON bodies (json-guards.ts): no NUL (a `%00` in a
 * path would reach PostgreSQL, which refuses the byte) and no lone surrogate. Bodies are checked
 * when parsed; this covers what the URL carries, for every route.
 */
@Injectable()
export class RequestTextPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'param' && metadata.type !== 'query') return value;
    const prefix = metadata.type === 'param' ? 'params' : 'query';
    const at = metadata.data ? `${prefix}.${metadata.data}` : prefix;
    const issues = jsonValueIssues(value).map((i) => ({ ...i, path: i.path ? `${at}.${i.path}` : at, message: i.message.replace(/^The body/, at) }));
    if (issues.length > 0) throw validationError(issues);
    return value;
  }
}
