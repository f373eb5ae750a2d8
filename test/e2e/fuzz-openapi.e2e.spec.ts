import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { createOperator } from '../../apps/gateway/src/auth/operator-keys';
import { openTestDatabase } from '../support/database';
import { type BodyVariant, hostileVariants, placesOf, rootVariants, withRaw } from '../support/fuzz/mutations';
import { FRESH_ID, type FuzzArea, areaHeaders, sampleBody, samplePathParam } from '../support/fuzz/samples';
import { type Answer, Client } from '../support/http';
import { type AnswerCheck, answerChecker } from '../support/openapi-answers';
import { AppProcess, startGateway } from '../support/stack';

jest.setTimeout(600_000);

/** fast-check's seed: fixed, so a failure is reproduced by the same run (FUZZ_SEED overrides). */
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly area: FuzzArea;
  readonly pathParams: readonly string[];
  /** The header naming the supplier (`supplier_uuid`, Spain's `participant-id`), if the operation takes one. */
  readonly supplierHeader?: string;
  /** Request schema name; `bulk` when the body is an array of it. */
  readonly schema?: string;
  readonly bulk: boolean;
  /** The credential the operation takes (its `security`): an operator's key for `operator`-only operations, else the account's. */
  readonly credential: 'tenant' | 'operator';
}

interface OpenApi {
  paths: Record<string, Record<string, { security?: Array<Record<string, unknown>>; parameters?: Array<{ in: string; name: string }>; requestBody?: { content?: Record<string, { schema?: { $ref?: string; title?: string; items?: { $ref?: string } } }> } }>>;
}

const areaOf = (path: string): FuzzArea => {
  const first = path.split('/')[1];
  if (first === 'be' || first === 'de' || first === 'sg' || first === 'toy' || first === 'es' || first === 'pl') return first;
  if (path.startsWith('/v1/participants') || path.startsWith('/v1/unified/participants')) return 'ae';
  return first === 'api' ? 'my' : 'none';
};

/** Every operation of the gateway's own OpenAPI document: a new route is fuzzed without being listed. */
function operationsOf(doc: OpenApi): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => {
      const schema = op.requestBody?.content?.['application/json']?.schema;
      // An inline schema (a body not validated by class-validator, e.g. the UAE document) is named by its title.
      const ref = schema?.$ref ?? schema?.items?.$ref ?? (schema?.title && `#/${schema.title}`);
      return {
        method: method.toUpperCase(),
        path,
        area: areaOf(path),
        pathParams: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        supplierHeader: (op.parameters ?? []).find((p) => p.in === 'header' && (p.name === 'supplier_uuid' || p.name === 'participant-id'))?.name,
        schema: ref?.split('/').pop(),
        bulk: schema?.items !== undefined,
        credential: credentialOf(op.security),
      };
    }),
  );
}

/** An operation whose every security requirement is the operator scheme takes an operator key (#50); any other, the account's. */
const credentialOf = (security: Array<Record<string, unknown>> | undefined): Operation['credential'] =>
  security?.length && security.every((requirement) => Object.keys(requirement).length === 1 && 'operator' in requirement) ? 'operator' : 'tenant';

/** The one error shape (DESIGN.md): what every refusal must look like; the OAuth token endpoint's is RFC 6749's. */
function shapeProblem(answer: Answer, path: string): string | undefined {
  const b = answer.body;
  if (path === '/v1/oauth/token') {
    const rfc = typeof b === 'object' && b !== null && ['invalid_request', 'invalid_client', 'unsupported_grant_type'].includes(b.error) && typeof b.error_description === 'string';
    return rfc ? undefined : `not RFC 6749's error shape: ${JSON.stringify(b).slice(0, 300)}`;
  }
  if (typeof b !== 'object' || b === null) return `not JSON: ${String(b).slice(0, 200)}`;
  if (typeof b.status !== 'string' || typeof b.message !== 'string' || !Array.isArray(b.errors)) return `not the one error shape: ${JSON.stringify(b).slice(0, 300)}`;
  const bad = b.errors.find((e: Record<string, unknown>) => typeof e.path !== 'string' || typeof e.code !== 'string' || typeof e.message !== 'string' || e.severity !== 'error');
  if (bad) return `an error entry not in the shape: ${JSON.stringify(bad)}`;
  const foreign = b.errors.find((e: { path: string; code: string }) => !ERROR_CODE.test(e.code) || !FIELD_PATH.test(e.path));
  return foreign ? `an error entry outside the one vocabulary (#47: FIELD.* or a rule id, paths like lines[0].unit_code): ${JSON.stringify(foreign)}` : undefined;
}

/** #47 one error vocabulary: `FIELD.REQUIRED`, `SUPPLIER.EXISTS`... or an official rule id (`BR-02`, `ibr-cl-25`, `PEPPOL-EN16931-R001`). */
const ERROR_CODE = /^([A-Z][A-Z0-9_]*(\.[A-Z0-9_]+)+|[A-Za-z][A-Za-z0-9]*(-[A-Za-z0-9.]+)+)$/;
/**
 * The one path syntax: `lines[0].unit_code` (`[0].ID` in a list body), a header or query name, or empty
 * (the request as a whole); never `lines.0.x`.
 */
const FIELD_PATH = /^$|^(?:[A-Za-z_$@][\w$@:-]*|\[\d+\])(?:\.[A-Za-z_$@][\w$@:-]*|\[\d+\])*$/;

/**
 * #9: every operation of /docs-json gets every family of hostile input the issue lists (prototype
 * keys, NUL, lone surrogates, deep nesting, null, arrays for objects, numbers no double holds,
 * NUL in path parameters), then fast-check's random JSON at random places: never a 5xx, every
 * refusal in the one error shape, and a refused request stores nothing.
 */
describe('#9 fuzzing every operation of the OpenAPI document', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  let client: Client;
  /** The operator key the `operator` operations are sent with (`/v1/operations/*`). */
  let operatorKey: string;
  let operations: Operation[];
  /** Each 2xx answer is held to the schema the document gives it (test/support/openapi-answers.ts). */
  let documented: AnswerCheck;
  const suppliers: Partial<Record<FuzzArea, string>> = {};
  const failures: string[] = [];
  let sent = 0;

  const storedUpTo = async (): Promise<string> => (await dataSource.query(`SELECT coalesce(max(global_position), 0)::text AS p FROM events`))[0].p;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, 'e2e fuzz');
    ({ api_key: operatorKey } = await createOperator((sql, params) => dataSource.query(sql, params), `e2e fuzz ${randomUUID()}`));
    // No workers: an accepted document answers 202 after a short wait, and nothing is sent anywhere.
    const started = await startGateway({ AUTHORITY_WAIT_MS: '20', MYINVOIS_WAIT_MS: '20', BODY_LIMIT_BYTES: '1048576' });
    gateway = started.app;
    client = new Client(started.url, apiKey);
    const document = (await client.get('/docs-json')).body as OpenApi;
    operations = operationsOf(document);
    documented = answerChecker(document as unknown as Record<string, unknown>);
    const onboardings: Array<[FuzzArea, string, string]> = [
      ['be', '/be/einvoice/onboard', 'OnboardingBody'], ['de', '/de/einvoice/onboard', 'OnboardingBody'], ['sg', '/sg/einvoice/onboard', 'OnboardingBody'],
      ['my', '/api/einvoice/onboard', 'MyInvoisOnboardingBody'], ['toy', '/toy/einvoice/onboard', 'ToyOnboardingBody'],
      ['ae', '/v1/participants', 'UaeParticipantBody'], ['es', '/es/verifactu/onboard', 'VerifactuOnboardingBody'], ['pl', '/pl/einvoice/onboard', 'KsefOnboardingBody'],
    ];
    for (const [area, path, schema] of onboardings) {
      const answer = await client.post(path, sampleBody(schema, area));
      if (answer.status === 201) suppliers[area] = answer.body.data.supplier_uuid ?? answer.body.data.participant_id;
    }
    expect(Object.keys(suppliers).sort()).toEqual(['ae', 'be', 'de', 'es', 'my', 'pl', 'sg', 'toy']);
  });

  afterAll(async () => {
    await gateway?.stop();
    await dataSource?.destroy();
  });

  /** Sends one request and records what is wrong with its answer, if anything. */
  async function check(op: Operation, what: string, request: { path?: string; raw?: string; headers?: Record<string, string> }): Promise<void> {
    const headers: Record<string, string> = { ...supplierHeaders(op), ...credentialHeaders(op), ...request.headers };
    const raw = request.raw?.split(JSON.stringify(FRESH_ID)).join(JSON.stringify(`FZ-${randomUUID().slice(0, 18)}`));
    const before = await storedUpTo();
    let answer: Answer;
    try {
      answer = await client.request(op.method, request.path ?? concretePath(op), { raw, headers });
    } catch (error) {
      failures.push(`${op.method} ${op.path} ${what}: no answer (${String(error)})`);
      return;
    } finally {
      sent += 1;
    }
    const label = `${op.method} ${op.path} ${what} → ${answer.status}`;
    if (answer.status >= 500) failures.push(`${label}: ${JSON.stringify(answer.body).slice(0, 300)}`);
    else if (answer.status >= 400) {
      const problem = shapeProblem(answer, op.path);
      if (problem) failures.push(`${label}: ${problem}`);
      else if ((await storedUpTo()) !== before) failures.push(`${label}: refused, yet events were stored`);
    } else failures.push(...documented(op.method, op.path, answer.status, answer.body).map((problem) => `${label}: not as documented: ${problem}`));
  }

  // The UAE area names its participant in the path, not in a header.
  const concretePath = (op: Operation, params: Record<string, string> = {}) =>
    op.path.replace(/\{(\w+)\}/g, (_m, name: string) => params[name] ?? (name === 'participant_id' ? suppliers.ae : undefined) ?? samplePathParam(name, op.path));
  const credentialHeaders = (op: Operation): Record<string, string> => (op.credential === 'operator' ? { 'x-svc-auth-key': operatorKey } : {});
  const supplierHeaders = (op: Operation): Record<string, string> =>
    op.supplierHeader && suppliers[op.area] ? { [op.supplierHeader]: suppliers[op.area] as string, ...areaHeaders[op.area] } : {};

  const bodyOf = (op: Operation): Record<string, unknown> => (op.schema && sampleBody(op.schema, op.area)) || { field: 'value' };
  const wrap = (op: Operation, raw: string) => (op.bulk ? `[${raw}]` : raw);

  it('never answers 5xx to the issue\'s families, answers every refusal in the one error shape, and stores nothing on refusal', async () => {
    for (const op of operations) {
      for (const name of op.pathParams) {
        for (const bad of ['%00', 'a%00b', '%E0%80%80', '%ZZ', 'x'.repeat(5_000)]) {
          await check(op, `path ${name}=${bad.slice(0, 12)}`, { path: concretePath(op, { [name]: bad }), raw: op.schema ? wrap(op, JSON.stringify(bodyOf(op))) : undefined });
        }
      }
      if (!op.schema && op.method === 'GET') continue;
      const body = bodyOf(op);
      if (process.env.FUZZ_DEBUG) {
        const raw = wrap(op, JSON.stringify(body).split(JSON.stringify(FRESH_ID)).join(JSON.stringify(`FZ-${randomUUID().slice(0, 18)}`)));
        const plain = await client.request(op.method, concretePath(op), { raw, headers: { ...supplierHeaders(op), ...credentialHeaders(op) } });
        console.log(`sample ${op.method} ${op.path} → ${plain.status} ${plain.status >= 400 ? JSON.stringify(plain.body).slice(0, 300) : ''}`);
      }
      // Field variants go inside the array of a bulk route; root variants are whole bodies.
      const variants: BodyVariant[] = [...hostileVariants(body).map((v) => ({ ...v, raw: wrap(op, v.raw) })), ...rootVariants(body)];
      for (const variant of variants) await check(op, `${variant.family} at ${variant.at || '(root)'}`, { raw: variant.raw });
      // The idempotency record hashes the body: deep nesting with a key must be refused before it.
      await check(op, 'root nesting with an Idempotency-Key', { raw: `${'['.repeat(5_000)}${']'.repeat(5_000)}`, headers: { 'idempotency-key': randomUUID() } });
    }
    if (failures.length) console.log(`${failures.length} of ${sent} requests failed:\n${failures.slice(0, 200).join('\n')}`);
    expect(failures).toEqual([]);
  });

  it('never answers 5xx to random JSON at random places of every body (fast-check)', async () => {
    failures.length = 0;
    const withBodies = operations.filter((op) => op.schema);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...withBodies),
        fc.nat(),
        fc.oneof(fc.jsonValue({ maxDepth: 6 }), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' })),
        async (op, pick, value) => {
          const body = bodyOf(op);
          const places = placesOf(body).filter((p) => p.path.length > 0);
          const { path } = places[pick % places.length];
          await check(op, `random value at ${path.join('.')}: ${JSON.stringify(value).slice(0, 80)}`, { raw: wrap(op, withRaw(body, path, JSON.stringify(value) ?? 'null')) });
          return true;
        },
      ),
      { seed: SEED, numRuns: Number(process.env.FUZZ_RUNS ?? 400) },
    );
    if (failures.length) console.log(`${failures.length} random requests failed:\n${failures.slice(0, 100).join('\n')}`);
    expect(failures).toEqual([]);
  });
});
