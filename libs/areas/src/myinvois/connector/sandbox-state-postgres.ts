/**
 * The sandbox's state in PostgreSQL (tables `myinvois_sandbox_*`, migration
 * 1732200000008-myinvois-sandbox), shared by every process of a stack as MyInvois is shared by
 * its callers. libs/areas imports no driver: the caller injects `query` (TypeORM's
 * `DataSource.query` fits). Each method is ONE statement, so it is atomic without a transaction
 * and never holds a connection between statements. Statements that change rows are written as
 * `WITH ... SELECT` or `INSERT ... RETURNING` so that `query` returns plain rows (TypeORM returns
 * `[rows, count]` for a bare UPDATE/DELETE).
 */
import { AccessToken, DocumentSummary } from './connector';
import { AddDocumentOutcome, RecentFilter, SandboxDocument, SandboxState, SandboxSubmission } from './sandbox-state';

/** Runs one SQL statement with `$n` parameters and resolves with its rows. */
export type SqlQuery = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

/** How often a DV302 claim is retried when the holder it lost to vanished before it could be named. */
const CLAIM_ATTEMPTS = 5;

export class PostgresSandboxState implements SandboxState {
  constructor(private readonly query: SqlQuery) {}

  async saveToken(token: AccessToken, now: number): Promise<void> {
    // Login prunes what has expired: the table holds live tokens only.
    await this.query(
      `WITH pruned AS (DELETE FROM myinvois_sandbox_tokens WHERE expires_at <= $5)
       INSERT INTO myinvois_sandbox_tokens (access_token, client_id, on_behalf_of_tin, expires_at) VALUES ($1, $2, $3, $4)
       RETURNING access_token`,
      [token.accessToken, token.clientId, token.onBehalfOfTin, token.expiresAt, now],
    );
  }

  async findToken(accessToken: string): Promise<AccessToken | undefined> {
    const [row] = await this.query(`SELECT access_token, client_id, on_behalf_of_tin, expires_at FROM myinvois_sandbox_tokens WHERE access_token = $1`, [accessToken]);
    return row && { accessToken: String(row.access_token), clientId: String(row.client_id), onBehalfOfTin: String(row.on_behalf_of_tin), expiresAt: Number(row.expires_at) };
  }

  async saveSubmission(submission: SandboxSubmission): Promise<void> {
    await this.query(
      `INSERT INTO myinvois_sandbox_submissions (submission_uid, client_id, date_time_received, received_at) VALUES ($1, $2, $3, $4) RETURNING submission_uid`,
      [submission.submissionUid, submission.clientId, submission.dateTimeReceived, Date.parse(submission.dateTimeReceived)],
    );
  }

  async findSubmission(submissionUid: string): Promise<SandboxSubmission | undefined> {
    const [row] = await this.query(`SELECT submission_uid, client_id, date_time_received FROM myinvois_sandbox_submissions WHERE submission_uid = $1`, [submissionUid]);
    return row && { submissionUid: String(row.submission_uid), clientId: String(row.client_id), dateTimeReceived: String(row.date_time_received) };
  }

  async addDocument(document: Omit<SandboxDocument, 'version'>, claimKey: boolean): Promise<AddDocumentOutcome> {
    const params = [document.summary.uuid, document.summary.submissionUid, document.key, document.validatesAt, document.becomesValid, JSON.stringify(document.summary)];
    const insert = `INSERT INTO myinvois_sandbox_documents (uuid, submission_uid, duplicate_key, validates_at, becomes_valid, summary)`;
    if (!claimKey) {
      await this.query(`${insert} VALUES ($1, $2, $3, $4, $5, $6::jsonb) RETURNING uuid`, params);
      return { stored: true };
    }
    for (let attempt = 1; ; attempt++) {
      // The key's primary key decides between concurrent claims (ON CONFLICT waits for the other
      // claim to commit). The document is stored only by the winner, in the same statement.
      const [row] = await this.query(
        `WITH claim AS (
           INSERT INTO myinvois_sandbox_duplicate_keys (duplicate_key, uuid) VALUES ($3, $1)
           ON CONFLICT (duplicate_key) DO NOTHING RETURNING uuid
         ), stored AS (
           ${insert} SELECT $1, $2, $3, $4, $5, $6::jsonb FROM claim RETURNING uuid
         )
         SELECT (SELECT uuid FROM stored) AS stored,
                (SELECT uuid FROM myinvois_sandbox_duplicate_keys WHERE duplicate_key = $3) AS holder`,
        params,
      );
      if (row?.stored) return { stored: true };
      if (row?.holder) return { duplicateOf: String(row.holder) };
      // Lost to a claim committed after this statement's snapshot, or the holder was cancelled
      // in between: ask again.
      if (attempt >= CLAIM_ATTEMPTS) throw new Error(`DV302 key of ${document.summary.uuid} could not be claimed or attributed`);
    }
  }

  async addDocuments(documents: ReadonlyArray<{ readonly document: Omit<SandboxDocument, 'version'>; readonly claimKey: boolean }>): Promise<AddDocumentOutcome[]> {
    if (!documents.length) return [];
    const column = <T>(of: (d: (typeof documents)[number]) => T) => documents.map(of);
    // One statement: the keys claimed in order (a key twice in the list: the first holds it), the
    // documents stored in order where they claimed theirs or claim none, and each one's holder.
    const rows = await this.query(
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::boolean[], $6::text[], $7::boolean[]) WITH ORDINALITY
           AS i(uuid, submission_uid, duplicate_key, validates_at, becomes_valid, summary, claim, ord)
       ), claimed AS (
         INSERT INTO myinvois_sandbox_duplicate_keys (duplicate_key, uuid)
         SELECT duplicate_key, uuid FROM input WHERE claim ORDER BY ord
         ON CONFLICT (duplicate_key) DO NOTHING RETURNING uuid, duplicate_key
       ), stored AS (
         INSERT INTO myinvois_sandbox_documents (uuid, submission_uid, duplicate_key, validates_at, becomes_valid, summary)
         SELECT i.uuid, i.submission_uid, i.duplicate_key, i.validates_at, i.becomes_valid, i.summary::jsonb FROM input i
         WHERE NOT i.claim OR EXISTS (SELECT 1 FROM claimed c WHERE c.uuid = i.uuid) ORDER BY i.ord
         RETURNING uuid
       )
       SELECT i.uuid, EXISTS (SELECT 1 FROM stored s WHERE s.uuid = i.uuid) AS stored,
              coalesce((SELECT c.uuid FROM claimed c WHERE c.duplicate_key = i.duplicate_key),
                       (SELECT k.uuid FROM myinvois_sandbox_duplicate_keys k WHERE k.duplicate_key = i.duplicate_key)) AS holder
       FROM input i ORDER BY i.ord`,
      [
        column((d) => d.document.summary.uuid),
        column((d) => d.document.summary.submissionUid),
        column((d) => d.document.key),
        column((d) => d.document.validatesAt),
        column((d) => d.document.becomesValid),
        column((d) => JSON.stringify(d.document.summary)),
        column((d) => d.claimKey),
      ],
    );
    const outcomes: AddDocumentOutcome[] = [];
    for (const [index, row] of rows.entries()) {
      if (row.stored) outcomes.push({ stored: true });
      else if (row.holder) outcomes.push({ duplicateOf: String(row.holder) });
      // Lost to a claim committed after the statement's snapshot: asked alone, as addDocument asks.
      else outcomes.push(await this.addDocument(documents[index].document, documents[index].claimKey));
    }
    return outcomes;
  }

  async submissionDocuments(submissionUid: string): Promise<SandboxDocument[]> {
    const rows = await this.query(`${SELECT_DOCUMENT} WHERE submission_uid = $1 ORDER BY seq`, [submissionUid]);
    return rows.map(documentOf);
  }

  async findDocument(uuid: string): Promise<SandboxDocument | undefined> {
    const [row] = await this.query(`${SELECT_DOCUMENT} WHERE uuid = $1`, [uuid]);
    return row && documentOf(row);
  }

  async markPolled(submissionUid: string): Promise<void> {
    await this.query(`WITH marked AS (UPDATE myinvois_sandbox_documents SET polled = true WHERE submission_uid = $1 AND NOT polled RETURNING 1) SELECT count(*) FROM marked`, [submissionUid]);
  }

  async replaceDocument(uuid: string, expectedVersion: number, summary: DocumentSummary, options: { releaseKey?: boolean } = {}): Promise<boolean> {
    // Two processes changing one document: the second UPDATE waits for the first, re-reads the
    // row, finds another version and changes nothing.
    const [row] = await this.query(
      `WITH changed AS (
         UPDATE myinvois_sandbox_documents SET summary = $3::jsonb, version = version + 1
         WHERE uuid = $1 AND version = $2 RETURNING uuid, duplicate_key
       ), released AS (
         DELETE FROM myinvois_sandbox_duplicate_keys k USING changed
         WHERE $4 AND k.duplicate_key = changed.duplicate_key AND k.uuid = changed.uuid RETURNING 1
       )
       SELECT (SELECT count(*) FROM changed)::int AS changed, (SELECT count(*) FROM released)::int AS released`,
      [uuid, expectedVersion, JSON.stringify(summary), options.releaseKey === true],
    );
    return Number(row?.changed) === 1;
  }

  async replaceDocuments(changes: ReadonlyArray<{ readonly uuid: string; readonly expectedVersion: number; readonly summary: DocumentSummary }>): Promise<ReadonlySet<string>> {
    if (!changes.length) return new Set();
    const rows = await this.query(
      `WITH input AS (SELECT * FROM unnest($1::text[], $2::int[], $3::text[]) AS i(uuid, version, summary)),
       changed AS (
         UPDATE myinvois_sandbox_documents d SET summary = i.summary::jsonb, version = d.version + 1
         FROM input i WHERE d.uuid = i.uuid AND d.version = i.version RETURNING d.uuid
       )
       SELECT uuid FROM changed`,
      [changes.map((c) => c.uuid), changes.map((c) => c.expectedVersion), changes.map((c) => JSON.stringify(c.summary))],
    );
    return new Set(rows.map((r) => String(r.uuid)));
  }

  async recentDocuments(filter: RecentFilter): Promise<{ documents: DocumentSummary[]; totalCount: number }> {
    const where = `FROM myinvois_sandbox_documents d JOIN myinvois_sandbox_submissions s ON s.submission_uid = d.submission_uid
      WHERE ($1::text IS NULL OR s.client_id = $1)
        AND ($2::text IS NULL OR (d.summary->>'receiverId' = $2 AND d.summary->>'dateTimeValidated' IS NOT NULL))
        AND ($3::bigint IS NULL OR s.received_at >= $3) AND ($4::bigint IS NULL OR s.received_at <= $4)
        AND ($5::text IS NULL OR d.summary->>'status' = $5)`;
    const params = [filter.clientId ?? null, filter.receiverTin ?? null, finite(filter.receivedFrom), finite(filter.receivedTo), filter.status ?? null];
    const [count] = await this.query(`SELECT count(*)::int AS n ${where}`, params);
    const rows = await this.query(`SELECT d.summary ${where} ORDER BY s.seq DESC, d.seq OFFSET $6 LIMIT $7`, [...params, filter.offset, filter.limit]);
    return { documents: rows.map((r) => r.summary as DocumentSummary), totalCount: Number(count?.n ?? 0) };
  }
}

const SELECT_DOCUMENT = `SELECT summary, duplicate_key, validates_at, becomes_valid, polled, version FROM myinvois_sandbox_documents`;

function documentOf(row: Record<string, unknown>): SandboxDocument {
  return {
    summary: row.summary as DocumentSummary,
    key: String(row.duplicate_key),
    // bigint columns arrive as strings (node-postgres keeps 64-bit integers exact).
    validatesAt: Number(row.validates_at),
    becomesValid: row.becomes_valid === true,
    polled: row.polled === true,
    version: Number(row.version),
  };
}

function finite(ms: number | undefined): number | null {
  return ms === undefined || !Number.isFinite(ms) ? null : Math.trunc(ms);
}
