// Which PINT MY participant a Malaysian onboarding registers, on real PostgreSQL: the free one,
// none when the TIN's participant is registered already, and never two for one TIN at once.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { myinvois } from '@einvoice/areas';
import { participantDecider, participantStreamId } from '@einvoice/domain';
import { EventStore, UnitOfWork, handleCommand } from '@einvoice/domain/infrastructure';
import { openTestDatabase } from '../../../../../test/support/database';
import { freshTin } from '../../../../../test/support/myinvois';
import { waitUntil } from '../../../../../test/support/wait';
import { claimSupplierParticipant, onboardingAnswer } from './supplier-participant';

describe('Malaysian onboarding: the supplier\'s PINT MY participant (0230 + TIN)', () => {
  let dataSource: DataSource;
  let store: EventStore;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
  });

  afterAll(() => dataSource?.destroy());

  const metadata = () => ({ tenantId: randomUUID(), correlationId: randomUUID() });
  const register = (uow: UnitOfWork, participantId: string) =>
    handleCommand(uow, participantDecider, participantStreamId(participantId), {
      type: 'RegisterParticipant',
      data: { participantId, tenantId: randomUUID(), source: 'api', businessEntities: [], registeredAt: new Date().toISOString(), kycRequired: false, kycMethods: [] },
    }, metadata());

  it('given a TIN whose participant is free, then the onboarding registers it', async () => {
    const tin = freshTin();
    const claim = await store.transaction((uow) => claimSupplierParticipant(uow, tin));
    expect(claim).toEqual({ outcome: 'registered', participantIds: [myinvois.pintMyParticipantId(tin)] });
    expect(onboardingAnswer('s-1', claim)).toEqual({ status: 'success', message: 'Supplier onboarded.', data: { supplier_uuid: 's-1' } });
  });

  it('given a TIN whose participant is registered already, then the onboarding goes on without it, and its message says so', async () => {
    const tin = freshTin();
    const pid = myinvois.pintMyParticipantId(tin);
    await store.transaction((uow) => register(uow, pid));
    const claim = await store.transaction((uow) => claimSupplierParticipant(uow, tin));
    expect(claim).toEqual({ outcome: 'held_elsewhere', participantIds: [], participantId: pid });
    const answer = onboardingAnswer('s-2', claim);
    expect(answer).toEqual({ status: 'success', message: expect.stringContaining(`${pid} is already registered`), data: { supplier_uuid: 's-2' } });
  });

  it('given a generic TIN, then no participant at all', async () => {
    await expect(store.transaction((uow) => claimSupplierParticipant(uow, 'EI00000000010'))).resolves.toEqual({ outcome: 'none', participantIds: [] });
  });

  it('given two onboardings of one TIN at once, then the second waits for the first and goes on without the participant (no conflict error)', async () => {
    const tin = freshTin();
    const pid = myinvois.pintMyParticipantId(tin);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const first = store.transaction(async (uow) => {
      const claim = await claimSupplierParticipant(uow, tin);
      await gate;
      if (claim.outcome === 'registered') await register(uow, pid);
      return claim.outcome;
    });
    const second = store.transaction(async (uow) => {
      // Starts once the first holds the id's lock.
      await waitUntil('first claim', async () => (await locksOn(pid, true)) === 1, 10_000);
      const claim = await claimSupplierParticipant(uow, tin);
      if (claim.outcome === 'registered') await register(uow, pid);
      return claim.outcome;
    });
    // The second is blocked on the lock (not merely slow) before the first goes on.
    await waitUntil('second waiting on the lock', async () => (await locksOn(pid, false)) === 1, 10_000);
    release();
    await expect(Promise.all([first, second])).resolves.toEqual(['registered', 'held_elsewhere']);
  });

  /** Sessions holding (granted) or waiting for the advisory lock of one participant id. */
  const locksOn = async (pid: string, granted: boolean) =>
    Number((await dataSource.query(
      `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = 7312002 AND objid = hashtext($1)::oid AND granted = $2`,
      [pid, granted],
    ))[0].n);
});
