/**
 * THE list of areas, apart from their contract (../registry, which areas import and which imports
 * no area). Adding an area is one line here (docs/adding-an-area.md); everything that
 * serves areas — the gateway's routes and webhook names, the workers, the projections, the topics
 * and the migrations — iterates this list instead of naming areas.
 */
import type { EventPlugin } from '@einvoice/domain';
import { myInvoisDefinition } from '../myinvois/definition';
import { peppolDefinitions } from '../peppol/definitions';
import { toyDefinition } from '../toy/definition';
import { uaeDefinition } from '../uae/definition';
import { verifactuDefinition } from '../verifactu/definition';
import { ksefDefinition } from '../ksef/definition';
import { jofotaraDefinition } from '../jofotara/definition';
import { firsDefinition } from '../firs/definition';
import { afipDefinition } from '../afip/definition';
import type { AreaDefinition, LargeBodies } from '../registry/area';
import { AREA_NAMES } from './area-names';
import { type AnyReportWebhookSource, type WebhookSource, reportWebhookSource } from '../registry/webhooks';

const everyArea: readonly AreaDefinition[] = [
  peppolDefinitions.be,
  peppolDefinitions.de,
  peppolDefinitions.sg,
  myInvoisDefinition,
  uaeDefinition,
  verifactuDefinition,
  ksefDefinition,
  jofotaraDefinition,
  firsDefinition,
  afipDefinition,
  toyDefinition,
];

/**
 * The areas this process serves: every area, except the test suite's own (`testOnly`) unless
 * `EINVOICE_TEST_AREAS=1` (set by `npm test` only).
 */
export function registeredAreas(env: NodeJS.ProcessEnv = process.env): readonly AreaDefinition[] {
  const withTests = env.EINVOICE_TEST_AREAS === '1';
  return checked(everyArea.filter((area) => withTests || !area.testOnly));
}

/** The areas of this process (see `registeredAreas`). */
export const areas: readonly AreaDefinition[] = registeredAreas();

/** An area by code; undefined when no area has it. */
export function findArea(code: string, list: readonly AreaDefinition[] = areas): AreaDefinition | undefined {
  return list.find((area) => area.code === code);
}

/** An area by code, for code that only ever holds registered codes (a supplier's `area`). */
export function areaOf(code: string, list: readonly AreaDefinition[] = areas): AreaDefinition {
  const area = findArea(code, list);
  if (!area) throw new Error(`No area "${code}" in the registry.`);
  return area;
}

/** The header an area's routes name the supplier by (`supplierRef`'s, else the seeds' `supplier_uuid`). */
export function supplierHeaderOf(area: Pick<AreaDefinition, 'supplierRef'>): string {
  return area.supplierRef?.header ?? 'supplier_uuid';
}

/**
 * What the areas bring to the event store (for `buildEventRegistry([corePlugin, ...areaEventPlugins()])`).
 * A batched area's report requests are not published: the batch sweep finds its reports in `documents`,
 * woken by the request's notification (`report_requested`), so the request has no one to reach on Kafka.
 */
export function areaEventPlugins(list: readonly AreaDefinition[] = areas): EventPlugin[] {
  return list.flatMap((area): EventPlugin[] => {
    const swept = area.authority?.batch ? ['AuthorityReportRequested'] : [];
    if (!area.events) return swept.length ? [{ name: `area:${area.code}:reports`, area: area.code, streams: {}, projectors: {}, unpublishedOfArea: swept }] : [];
    if (!swept.length) return [area.events];
    return [{ ...area.events, area: area.events.area ?? area.code, unpublishedOfArea: [...(area.events.unpublishedOfArea ?? []), ...swept] }];
  });
}

/** Every webhook event name some area accepts (the OpenAPI enum), in registry order, once each. */
export function allWebhookEventNames(list: readonly AreaDefinition[] = areas): string[] {
  return [...new Set(list.flatMap((area) => area.webhookEvents))];
}

/**
 * Whether some area makes webhooks of event types of its own (`webhooks`): those travel on their streams'
 * topics, which the webhook dispatcher then reads too; otherwise it reads only `received` (DocumentReceived)
 * and `reports` (the reports' events `reportWebhooks` turn into webhooks).
 */
export function anyAreaOwnWebhooks(list: readonly AreaDefinition[] = areas): boolean {
  return list.some((area) => Object.keys(area.webhooks ?? {}).length > 0);
}

/**
 * The webhook source of every event type some area turns into webhooks: an area's own event types,
 * one area each; and each report event type any area declares (`reportWebhooks`), ONE source that
 * asks the area of the event's document.
 */
export function webhookSources(list: readonly AreaDefinition[] = areas): ReadonlyMap<string, WebhookSource> {
  const sources = new Map<string, WebhookSource>();
  const add = (type: string, source: WebhookSource) => {
    if (sources.has(type)) throw new Error(`Two areas make webhooks of ${type}.`);
    sources.set(type, source);
  };
  for (const area of list) {
    for (const [type, source] of Object.entries(area.webhooks ?? {})) add(type, source);
  }
  const reportSources = new Map<string, Map<string, AnyReportWebhookSource>>();
  for (const area of list) {
    for (const [type, source] of Object.entries(area.reportWebhooks ?? {})) {
      if (!source) continue;
      const byArea = reportSources.get(type) ?? new Map<string, AnyReportWebhookSource>();
      reportSources.set(type, byArea.set(area.code, source));
    }
  }
  for (const [type, byArea] of reportSources) add(type, reportWebhookSource(byArea));
  return sources;
}

/** The per-path body limits the areas declare (`largeBodies`). */
export const areaLargeBodies = (list: readonly AreaDefinition[] = areas): readonly LargeBodies[] =>
  list.flatMap((area) => (area.largeBodies ? [area.largeBodies] : []));

/**
 * The largest body accepted on a path (the request URL, query included): the largest of the `limits`
 * whose prefixes the path starts with (the areas', and any route of the gateway's own), `defaultBytes`
 * everywhere else.
 */
export function bodyLimitFor(url: string, defaultBytes: number, limits: readonly LargeBodies[] = areaLargeBodies()): number {
  const path = url.split('?')[0].replace(/^\/+/, '');
  let limit = defaultBytes;
  for (const large of limits) {
    if (large.pathPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) limit = Math.max(limit, large.bytes);
  }
  return limit;
}

/** The largest body any path accepts (the HTTP server's own ceiling). */
export const largestBodyLimit = (defaultBytes: number, limits: readonly LargeBodies[] = areaLargeBodies()): number =>
  Math.max(defaultBytes, ...limits.map((large) => large.bytes));

/**
 * Codes and route prefixes are unique: two areas answering on one path would shadow each other. The
 * areas served (the test suite's own aside) are area-names.ts's, in its order, with its names: what a
 * browser bundle offers is what the gateway serves.
 */
function checked(list: readonly AreaDefinition[]): readonly AreaDefinition[] {
  for (const key of ['code', 'routePrefix'] as const) {
    const seen = new Set<string>();
    for (const area of list) {
      if (seen.has(area[key])) throw new Error(`Two areas share the ${key} "${area[key]}".`);
      seen.add(area[key]);
    }
  }
  const served = list.filter((area) => !area.testOnly).map((area) => `${area.code} ${area.name}`);
  const named = Object.entries(AREA_NAMES).map(([code, name]) => `${code} ${name}`);
  if (served.join(', ') !== named.join(', ')) {
    throw new Error(`The areas listed (${served.join(', ')}) are not area-names.ts's (${named.join(', ')}): add, remove or rename the area in both.`);
  }
  return list;
}
