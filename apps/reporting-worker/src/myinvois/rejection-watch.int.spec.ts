import { randomBytes, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AppError, SecretBox } from '@einvoice/domain';
import { MyInvoisSubmissionCommand, myInvoisSubmissionDecider, myInvoisSubmissionStreamId } from '@einvoice/areas';
import { EventStore, handleCommand } from '@einvoice/domain/infrastructure';
import { myinvois } from '@einvoice/areas';
import { openTestDatabase } from '../../../../test/support/database';
import { RejectionWatch, WATCH_LOCK, watchedSuppliers } from './rejection-watch';

const HOUR = 3_600_000;
const now = Date.parse('2026-03-20T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe('#4 MyInvois rejection watch: which documents a scan asks about (real PostgreSQL)', () => {
  let dataSource: DataSource;
  let store: EventStore;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
  });
  afterAll(async () => {
    await dataSource?.destroy();
  });

  /** One submission of one document through the decider, up to `outcome` (as the reporting worker records it). */
  async function document(supplierId: string, submittedAt: number, outcome: 'valid' | 'invalid' | 'rejected_by_buyer' | 'cancelled' | 'submitted' = 'valid', validatedAt = submittedAt + 60_000) {
    const submissionId = randomUUID();
    const documentId = randomUUID();
    const uuid = `U${randomUUID().replace(/-/g, '').slice(0, 25).toUpperCase()}`;
    const commands: MyInvoisSubmissionCommand[] = [
      {
        type: 'SubmitToMyInvois',
        data: {
          submissionId, tenantId: randomUUID(), supplierId, kind: 'invoice', submittedAt: iso(submittedAt),
          documents: [{ documentId, invoiceCodeNumber: `INV-${documentId}`, format: 'JSON', document: '{}', documentHash: 'h' }],
        },
      },
      {
        type: 'RecordSubmissionAccepted',
        data: { submissionId, submissionUid: 'UID', acceptedDocuments: [{ documentId, uuid, invoiceCodeNumber: `INV-${documentId}` }], rejectedDocuments: [], acceptedAt: iso(submittedAt + 1_000) },
      },
    ];
    if (outcome !== 'submitted') {
      const status = outcome === 'invalid' ? 'Invalid' : 'Valid';
      commands.push({ type: 'RecordPoll', data: { submissionId, pollNo: 1, maxPolls: 10, documents: [{ uuid, status, longId: 'L' }], polledAt: iso(validatedAt), nextPollAt: iso(validatedAt) } });
    }
    if (outcome === 'rejected_by_buyer') commands.push({ type: 'RecordRejectionByBuyer', data: { submissionId, uuid, reason: 'No', requestedAt: iso(validatedAt + HOUR) } });
    if (outcome === 'cancelled') {
      commands.push({ type: 'RequestCancellation', data: { submissionId, documentId, uuid, reason: 'x', requestedAt: iso(validatedAt + HOUR) } });
      commands.push({ type: 'RecordCancellation', data: { submissionId, uuid, at: iso(validatedAt + HOUR) } });
    }
    for (const command of commands) {
      await store.transaction((uow) => handleCommand(uow, myInvoisSubmissionDecider, myInvoisSubmissionStreamId(submissionId), command, { tenantId: 't' }));
    }
    return { submissionId, documentId, uuid };
  }

  it('asks, per supplier, about its valid documents validated less than 72 h ago, from the oldest one\'s submission − 1 min to now', async () => {
    const supplier = randomUUID();
    const open = await document(supplier, now - 10 * HOUR);
    const newer = await document(supplier, now - 2 * HOUR);
    await document(supplier, now - 80 * HOUR); // validated 80 h ago: MyInvois no longer takes a rejection
    await document(supplier, now - 20 * HOUR, 'rejected_by_buyer'); // recorded before: not asked again
    await document(supplier, now - 30 * HOUR, 'invalid');
    await document(supplier, now - 30 * HOUR, 'cancelled');
    await document(supplier, now - 1 * HOUR, 'submitted');
    const quiet = randomUUID();
    await document(quiet, now - 5 * HOUR, 'invalid');

    const watched = (await watchedSuppliers(dataSource, now)).filter((s) => s.supplierId === supplier || s.supplierId === quiet);

    expect(watched).toHaveLength(1);
    expect(watched[0].supplierId).toBe(supplier);
    expect([...watched[0].documents.values()]).toEqual([open, newer]);
    expect(watched[0].submissionDateFrom).toBe('2026-03-20T01:59:00Z');
    expect(watched[0].submissionDateTo).toBe('2026-03-20T12:00:00Z');
  });

  it('a document validated 71 h 59 min ago is watched; at 72 h 1 min it is not', async () => {
    const supplier = randomUUID();
    const inside = await document(supplier, now - 80 * HOUR, 'valid', now - 72 * HOUR + 60_000);
    await document(supplier, now - 80 * HOUR, 'valid', now - 72 * HOUR - 60_000);
    const [watched] = (await watchedSuppliers(dataSource, now)).filter((s) => s.supplierId === supplier);
    expect([...watched.documents.keys()]).toEqual([inside.uuid]);
    // Submitted 80 h ago: the window starts there, a minute earlier.
    expect(watched.submissionDateFrom).toBe(iso(now - 80 * HOUR - 60_000).replace('.000Z', 'Z'));
  });

  describe('a scan round', () => {
    /** MyInvois as the scan sees it: per client id, what Get Recent Documents answers (or a 429). */
    class ScriptedMyInvois {
      readonly asked: string[] = [];
      readonly sent = new Map<string, { uuid: string; rejectRequestDateTime?: string; documentStatusReason?: string }[]>();
      readonly limited = new Set<string>();
      async login(credentials: myinvois.MyInvoisCredentials): Promise<myinvois.AccessToken> {
        return { accessToken: credentials.clientId, expiresAt: Date.now() + 3_600_000, clientId: credentials.clientId, onBehalfOfTin: credentials.onBehalfOfTin };
      }
      async recentDocuments(token: myinvois.AccessToken): Promise<myinvois.RecentDocuments> {
        this.asked.push(token.clientId);
        if (this.limited.has(token.clientId)) {
          throw new AppError('rate_limited', 'MYINVOIS.RATE_LIMITED', 'MyInvois rate limit reached.', { details: { retryAfterMs: 30_000 } });
        }
        const result = (this.sent.get(token.clientId) ?? []).map((d) => ({ ...d, submissionUid: 'UID', longId: 'L', internalId: 'I', typeName: 'Invoice', status: 'Valid' as const, dateTimeReceived: iso(at) }));
        return { result, metadata: { totalPages: 1, totalCount: result.length } };
      }
    }

    // Far from any other test's documents, so only this test's suppliers are open at this time.
    const at = Date.now() + 400 * 24 * HOUR;
    let clock = at;
    const secrets = SecretBox.fromKey(randomBytes(32));
    const authority = new ScriptedMyInvois();
    const watch = (lockName = `watch-${randomUUID()}`) =>
      new RejectionWatch(
        {
          store, connector: authority as unknown as myinvois.MyInvoisConnector, secrets, groupId: 'test', log: () => undefined,
          tokens: new myinvois.TokenCache((credentials) => authority.login(credentials)), pollIntervalMs: 0, maxPolls: 1, maxRetryAfterMs: 0, minDeferMs: 1_000,
        },
        { dataSource, lockName, intervalMs: 60_000, now: () => clock },
      );
    const supplierWith = async (clientId: string) => {
      const supplierId = randomUUID();
      await dataSource.query(`INSERT INTO authority_credentials (supplier_id, authority, client_id, client_secret_sealed) VALUES ($1, $2, $3, $4)`, [
        supplierId, myinvois.MYINVOIS_AUTHORITY, clientId, secrets.seal('secret'),
      ]);
      return supplierId;
    };
    const stateOf = async (uuid: string) => (await dataSource.query(`SELECT state, rejection_reason FROM myinvois_documents WHERE uuid = $1`, [uuid]))[0];

    it('records the rejections MyInvois shows, once; a rate-limited supplier is skipped until its Retry-After has passed; the others go on', async () => {
      const rejecting = `client-${randomUUID()}`;
      const limited = `client-${randomUUID()}`;
      const rejected = await document(await supplierWith(rejecting), at - 5 * HOUR);
      const untouched = await document(await supplierWith(rejecting), at - 4 * HOUR);
      const waiting = await document(await supplierWith(limited), at - 3 * HOUR);
      authority.sent.set(rejecting, [{ uuid: rejected.uuid, rejectRequestDateTime: iso(at - HOUR), documentStatusReason: 'Wrong quantity' }, { uuid: untouched.uuid }]);
      authority.limited.add(limited);
      const scanner = watch();

      expect(await scanner.runOnce()).toBe(true);
      expect(await stateOf(rejected.uuid)).toEqual({ state: 'rejected_by_buyer', rejection_reason: 'Wrong quantity' });
      expect((await stateOf(untouched.uuid)).state).toBe('valid');
      expect(authority.asked.filter((c) => c === limited)).toHaveLength(1);

      clock = at + 10_000; // within the 30 s Retry-After
      await scanner.runOnce();
      expect(authority.asked.filter((c) => c === limited)).toHaveLength(1);
      const events = await dataSource.query(`SELECT count(*)::int AS n FROM events WHERE stream_id = $1 AND type = 'MyInvoisDocumentRejectedByBuyer'`, [myInvoisSubmissionStreamId(rejected.submissionId)]);
      expect(events[0].n).toBe(1);

      clock = at + 31_000;
      authority.limited.delete(limited);
      authority.sent.set(limited, [{ uuid: waiting.uuid, rejectRequestDateTime: iso(at), documentStatusReason: 'Not ordered' }]);
      await scanner.runOnce();
      expect(authority.asked.filter((c) => c === limited)).toHaveLength(2);
      expect(await stateOf(waiting.uuid)).toEqual({ state: 'rejected_by_buyer', rejection_reason: 'Not ordered' });
    });

    it('one scanner at a time: while another holds the lock, a round does nothing', async () => {
      const lockName = `watch-${randomUUID()}`;
      const scanner = watch(lockName);
      const runner = dataSource.createQueryRunner();
      await runner.connect();
      try {
        await runner.query(`SELECT pg_advisory_lock($1, hashtext($2))`, [WATCH_LOCK, lockName]);
        expect(await scanner.runOnce()).toBe(false);
        await runner.query(`SELECT pg_advisory_unlock($1, hashtext($2))`, [WATCH_LOCK, lockName]);
        expect(await scanner.runOnce()).toBe(true);
      } finally {
        await runner.release();
      }
    });
  });
});
