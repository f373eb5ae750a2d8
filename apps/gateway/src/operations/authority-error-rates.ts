/**
 * How often each area's tax authority refused what it was sent, over a recent window (#50: the console's
 * Operations page, `GET /v1/operations/authority-errors`, `cli authority errors`). Counted from the account
 * events (migration AccountEvents1732200001980): `document.reported` when an authority accepted a document,
 * `document.report_failed` when it refused it (report `rejected` or `invalid`), each recorded in the
 * transaction that changed the document, and kept 30 days; `account_events_created_idx` finds the window.
 * What never got an answer (an authority down, a 429 waiting for its Retry-After) is not a refusal: the
 * reporting worker's `einvoice_authority_calls_total{outcome}` on /metrics counts those calls.
 */
type Query = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

export interface AuthorityErrorRate {
  readonly area: string;
  /** Documents the authority accepted in the window. */
  readonly reported: number;
  /** Documents it refused in the window. */
  readonly refused: number;
  /** refused / (reported + refused); null when it answered nothing in the window. */
  readonly refusedRate: number | null;
}

/** Each of `areaCodes` (zeros when its authority answered nothing) and any other area with answers, by code. */
export function errorRates(counts: ReadonlyArray<{ area: string; reported: number; refused: number }>, areaCodes: readonly string[]): AuthorityErrorRate[] {
  const byArea = new Map(areaCodes.map((area) => [area, { reported: 0, refused: 0 }]));
  for (const row of counts) byArea.set(row.area, { reported: Number(row.reported), refused: Number(row.refused) });
  return [...byArea.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([area, { reported, refused }]) => ({ area, reported, refused, refusedRate: reported + refused === 0 ? null : Math.round((refused / (reported + refused)) * 10_000) / 10_000 }));
}

/** The authorities' answers of the last `windowMs`, per area: `areaCodes` are the areas that report to one (shown with zeros). */
export async function authorityErrorRates(query: Query, windowMs: number, areaCodes: readonly string[]): Promise<{ since: string; until: string; areas: AuthorityErrorRate[] }> {
  const [window] = await query<{ since: Date; until: Date }>(`SELECT now() - $1 * interval '1 millisecond' AS since, now() AS until`, [windowMs]);
  const counts = await query<{ area: string; reported: number; refused: number }>(
    `SELECT area, (count(*) FILTER (WHERE type = 'document.reported'))::int AS reported, (count(*) FILTER (WHERE type = 'document.report_failed'))::int AS refused
     FROM account_events
     WHERE created_at > $1 AND created_at <= $2 AND type IN ('document.reported', 'document.report_failed')
     GROUP BY area`,
    [window.since, window.until],
  );
  return { since: window.since.toISOString(), until: window.until.toISOString(), areas: errorRates(counts, areaCodes) };
}
