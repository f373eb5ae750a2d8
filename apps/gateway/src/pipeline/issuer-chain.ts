import { AppError, type EventMetadata, type SupplierProfile, WrongExpectedVersionError, documentChainDecider, documentChainStateOf, documentChainStreamId } from '@einvoice/domain';
import { type UnitOfWork, handleCommand } from '@einvoice/domain/infrastructure';
import type { AreaDefinition, ChainCodec, ChainedDocument, ParsedDocument } from '@einvoice/areas';
import type { Connections } from '../infrastructure/infrastructure.module';
import { KeyedTurns } from './keyed-turns';

/** Times a request links its record again after losing the race to its issuer's chain. */
const CHAIN_ATTEMPTS = 20;

/** Records chained per issuer (`documents.chain`: VeriFactu's huella), one chain stream per area and issuer. */
export class IssuerChains {
  private readonly turns = new KeyedTurns();

  constructor(private readonly connections: Connections) {}

  /**
   * Links the document as the next record of its issuer's chain and records it (`record`, in the
   * same transaction as the chain's append): the append expects the chain's version as read, so a
   * request that lost the race to another of the same issuer reads the chain again and links on the
   * winner's record (up to CHAIN_ATTEMPTS times; then a retriable 503), never forking the chain.
   */
  async link(
    area: AreaDefinition,
    codec: ChainCodec,
    parsed: ParsedDocument,
    supplier: { readonly id: string; readonly profile: SupplierProfile },
    ids: { readonly documentId: string; readonly reportId: string },
    record: (uow: UnitOfWork, next: ChainedDocument, at: string, position: number) => Promise<void>,
    metadata: EventMetadata,
  ): Promise<ChainedDocument> {
    const streamId = documentChainStreamId(area.code, supplier.id);
    const prepared = await codec.prepare?.(parsed, supplier.profile);
    // One request per chain at a time in this process: the others would only lose the race. Other
    // gateways still race, and the expected version settles it.
    return this.turns.inTurn(streamId, async () => {
      for (let attempt = 1; ; attempt += 1) {
        // The chain's state is its last link: one row, however long the chain.
        const state = documentChainStateOf(await this.connections.store.readLast(streamId));
        const at = new Date();
        const next = await codec.link(parsed, supplier.profile, { documentId: ids.documentId, previous: state.last, at, prepared });
        try {
          await this.connections.store.transaction(async (uow) => {
            await record(uow, next, at.toISOString(), state.length + 1);
            await handleCommand(
              uow,
              documentChainDecider,
              streamId,
              { type: 'AppendToChain', data: { ...ids, link: next.link, chainedAt: at.toISOString() } },
              metadata,
              { from: { state, version: state.length } },
            );
          });
          return next;
        } catch (error) {
          if (!(error instanceof WrongExpectedVersionError)) throw error;
          if (attempt >= CHAIN_ATTEMPTS) throw new AppError('unavailable', 'CHAIN.BUSY', 'Too many records of this issuer at once; retry shortly.', { retriable: true });
        }
      }
    });
  }
}
