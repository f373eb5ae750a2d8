/**
 * Whether an answer is what the OpenAPI document says that operation answers with that status: its
 * JSON body validated against the documented schema (JSON Schema 2020-12, as OpenAPI 3.1 writes it) by
 * Ajv. Keeps the documented answers honest: the e2e of the generated client and the fuzz suite check
 * every 2xx they get.
 */
import Ajv2020 from 'ajv/dist/2020';

type Json = Record<string, unknown>;

/** The documented schema's complaints about one answer; none when it matches or the status documents no JSON. */
export type AnswerCheck = (method: string, path: string, status: number, body: unknown) => string[];

export function answerChecker(document: Json): AnswerCheck {
  // strict: false — OpenAPI's own keywords (`example`) sit in its schemas; formats are the document's words, not checks.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(document, 'openapi');
  const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
  const compiled = new Map<string, ReturnType<typeof ajv.compile> | null>();
  return (method, path, status, body) => {
    const key = `${method.toLowerCase()} ${path} ${status}`;
    if (!compiled.has(key)) {
      const operation = ((document.paths as Record<string, Json>)[path]?.[method.toLowerCase()] ?? undefined) as Json | undefined;
      const answer = (operation?.responses as Record<string, Json> | undefined)?.[String(status)];
      const media = (answer?.content as Record<string, Json> | undefined)?.['application/json'];
      compiled.set(key, media?.schema
        ? ajv.compile({ $ref: `openapi#/${pointer('paths', path, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema')}` })
        : null);
    }
    const validate = compiled.get(key);
    if (!validate || validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${method.toUpperCase()} ${path} ${status}: ${e.instancePath || '(body)'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
  };
}
