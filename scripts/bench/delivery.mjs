// Submission-to-Delivered, read from the bench database after the load stopped.
//
// Times come from events.recorded_at, whose default is now(): PostgreSQL's transaction START
// time. DocumentSubmitted's transaction starts after validation and rendering; DocumentDelivered's
// starts when the delivery-worker begins handling the Kafka message (before the access point
// call; with the sandbox access point and SANDBOX_AP_LATENCY_MS=0 that call is a local insert).

import { largest, smallest } from './stats.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function openDatabase(databaseUrl) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'einvoice-bench' });
  await client.connect();
  return client;
}

/**
 * Polls `documents` until every id is Delivered or `timeoutMs` passed.
 * @returns {{ delivered: number, total: number, missing: number, observedMs: number, complete: boolean }}
 */
export async function waitForDelivery(db, ids, { timeoutMs, since, assertAlive, onProgress }) {
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  for (;;) {
    const { rows } = await db.query(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE delivery_status = 'Delivered')::int AS delivered
       FROM documents WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    const { total, delivered } = rows[0];
    if (delivered !== last) {
      onProgress?.(delivered, ids.length);
      last = delivered;
    }
    const complete = delivered === ids.length;
    if (complete || Date.now() > deadline) {
      return { delivered, total, missing: ids.length - total, observedMs: Date.now() - since, complete };
    }
    assertAlive?.();
    await sleep(250);
  }
}

/** Documents among `ids` recorded Delivered more than once, or sent to the access point more than once. */
export async function duplicatedDeliveries(db, ids) {
  const { rows } = await db.query(
    `SELECT count(*) FILTER (WHERE delivered > 1)::int AS twice FROM (
       SELECT count(*) AS delivered FROM unnest($1::uuid[]) AS x(id)
       JOIN events d ON d.stream_id = 'document-' || x.id AND d.type = 'DocumentDelivered' GROUP BY x.id) per_document`,
    [ids],
  );
  return rows[0].twice;
}

/** Per-document timings (ms) of the delivered documents among `ids`. */
export async function deliveryTimings(db, ids) {
  const { rows } = await db.query(
    `SELECT extract(epoch FROM d.recorded_at - s.recorded_at) * 1000 AS submitted_to_delivered,
            extract(epoch FROM o.processed_at - s.recorded_at) * 1000 AS submitted_to_relayed,
            extract(epoch FROM d.recorded_at - o.processed_at) * 1000 AS relayed_to_delivered,
            extract(epoch FROM s.recorded_at) * 1000 AS submitted_at,
            extract(epoch FROM d.recorded_at) * 1000 AS delivered_at
     FROM unnest($1::uuid[]) AS x(id)
     JOIN events s ON s.stream_id = 'document-' || x.id AND s.type = 'DocumentSubmitted'
     JOIN events d ON d.stream_id = 'document-' || x.id AND d.type = 'DocumentDelivered'
     LEFT JOIN outbox o ON o.event_id = s.event_id`,
    [ids],
  );
  const column = (name) => rows.map((r) => Number(r[name])).filter((v) => Number.isFinite(v));
  return {
    count: rows.length,
    submittedToDelivered: column('submitted_to_delivered'),
    submittedToRelayed: column('submitted_to_relayed'),
    relayedToDelivered: column('relayed_to_delivered'),
    firstSubmittedAt: smallest(column('submitted_at')),
    lastDeliveredAt: largest(column('delivered_at')),
  };
}
