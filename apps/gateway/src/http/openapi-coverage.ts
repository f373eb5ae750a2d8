/**
 * What the OpenAPI document leaves undescribed (#47: "every operation with summary and description,
 * every field with a description and an example, each request body with a realistic example, every
 * success answer with its schema"). `cli openapi --gaps [tag]` prints it while one writes the
 * descriptions; the document's unit test wants none.
 */
type Json = Record<string, unknown>;

export interface OpenApiGaps {
  /** `GET /path` of operations without a description (the summary alone is a line). */
  readonly operationsWithoutDescription: string[];
  /** `GET /path` of operations whose 2xx answers are missing, or carry no schema or no example. */
  readonly answersWithoutSchema: string[];
  /** `POST /path` of request bodies without an example. */
  readonly bodiesWithoutExample: string[];
  /** `GET /path header supplier_uuid` of parameters without a description. */
  readonly parametersWithoutDescription: string[];
  /** `Schema.field` of component schemas' fields without a description or without an example. */
  readonly fieldsWithoutDescription: string[];
  readonly fieldsWithoutExample: string[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** The gaps of the operations tagged with a tag containing `tag` (all when absent), and of the schemas they use. */
export function openApiGaps(document: Json, tag?: string): OpenApiGaps {
  const gaps: OpenApiGaps = {
    operationsWithoutDescription: [], answersWithoutSchema: [], bodiesWithoutExample: [], parametersWithoutDescription: [],
    fieldsWithoutDescription: [], fieldsWithoutExample: [],
  };
  const schemas = ((document.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  const used = new Set<string>();
  for (const [route, item] of Object.entries(document.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      if (tag !== undefined && !((operation.tags ?? []) as string[]).some((t) => t.includes(tag))) continue;
      const name = `${method.toUpperCase()} ${route}`;
      collectReferences(operation, schemas, used);
      if (!nonBlank(operation.description)) gaps.operationsWithoutDescription.push(name);
      if (!answersDescribed(operation.responses as Record<string, Json>)) gaps.answersWithoutSchema.push(name);
      const body = operation.requestBody as Json | undefined;
      if (body && !Object.values((body.content ?? {}) as Record<string, Json>).some(hasExample)) gaps.bodiesWithoutExample.push(name);
      for (const parameter of (operation.parameters ?? []) as Json[]) {
        if (!nonBlank(parameter.description)) gaps.parametersWithoutDescription.push(`${name} ${parameter.in} ${parameter.name}`);
      }
    }
  }
  for (const schemaName of [...used].sort()) {
    if (schemaName === 'ErrorBody') continue;
    for (const [field, property] of Object.entries((schemas[schemaName].properties ?? {}) as Record<string, Json>)) {
      if (!nonBlank(property.description)) gaps.fieldsWithoutDescription.push(`${schemaName}.${field}`);
      if (!hasExample(property) && !hasExample((property.items ?? {}) as Json)) gaps.fieldsWithoutExample.push(`${schemaName}.${field}`);
    }
  }
  return gaps;
}

/** Every 2xx answer but a 204 has content whose media types each have a schema and an example. */
function answersDescribed(responses: Record<string, Json> = {}): boolean {
  const successes = Object.entries(responses).filter(([status]) => /^2\d\d$/.test(status));
  if (successes.length === 0) return false;
  return successes.every(([status, answer]) => {
    if (status === '204') return true;
    const media = Object.values((answer.content ?? {}) as Record<string, Json>);
    return media.length > 0 && media.every((m) => isTyped(m.schema as Json | undefined) && (hasExample(m) || isBinary(m.schema as Json) || isReferenceWithExample(m.schema as Json)));
  });
}

/** A schema that says what the answer holds (a generated client types it), not only an example of it. */
const isTyped = (schema: Json | undefined) => schema !== undefined && ['type', '$ref', 'oneOf', 'anyOf', 'allOf'].some((key) => key in schema);
const nonBlank = (value: unknown) => typeof value === 'string' && value.trim().length > 0;
const hasExample = (node: Json) => node.example !== undefined || (node.examples !== undefined && Object.keys(node.examples as object).length > 0)
  || (node.schema !== undefined && (node.schema as Json).example !== undefined);
/** A file answer (XML, PDF, PNG): its media type says what it is. */
const isBinary = (schema: Json) => schema.type === 'string' && (schema.format === 'binary' || schema.contentMediaType !== undefined);
/** A reference to a component schema: its fields carry the examples (checked with the fields). */
const isReferenceWithExample = (schema: Json) => typeof schema.$ref === 'string';

/** The component schemas an operation refers to, transitively. */
function collectReferences(node: unknown, schemas: Record<string, Json>, found: Set<string>): void {
  if (Array.isArray(node)) node.forEach((child) => collectReferences(child, schemas, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const name = /^#\/components\/schemas\/(.+)$/.exec(value)?.[1];
        if (name && !found.has(name) && schemas[name]) {
          found.add(name);
          collectReferences(schemas[name], schemas, found);
        }
      } else collectReferences(value, schemas, found);
    }
  }
}

/** Counts, for a line of progress. */
export function gapCounts(gaps: OpenApiGaps): Record<keyof OpenApiGaps, number> {
  return Object.fromEntries(Object.entries(gaps).map(([k, v]) => [k, (v as string[]).length])) as Record<keyof OpenApiGaps, number>;
}
