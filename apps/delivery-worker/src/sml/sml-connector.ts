import type { SmlConnector } from '@einvoice/areas';
import type { DataSource } from 'typeorm';

/** A simulated SML that records registrations in `sandbox_sml_registrations`; `latencyMs` simulates the network. */
export class SandboxSml implements SmlConnector {
  constructor(
    private readonly dataSource: DataSource,
    private readonly smpId: string,
    private readonly latencyMs = 0,
  ) {}

  async register(participantId: string): Promise<void> {
    await this.set(participantId, true);
  }

  async unregister(participantId: string): Promise<void> {
    await this.set(participantId, false);
  }

  private async set(participantId: string, active: boolean): Promise<void> {
    if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));
    await this.dataSource.query(
      `INSERT INTO sandbox_sml_registrations (participant_id, smp_id, active) VALUES ($1, $2, $3)
       ON CONFLICT (participant_id) DO UPDATE SET active = EXCLUDED.active, smp_id = EXCLUDED.smp_id, updated_at = now()`,
      [participantId, this.smpId, active],
    );
  }
}
