import type { DataSource } from 'typeorm';

/**
 * Waits for the delivery-worker's outcome of an SML request: polls the participant's
 * `sml_status` until it is `target` or `timeoutMs` passed. True when reached. Polling the read
 * model (not a subscription) keeps every gateway instance stateless; 100 ms is below the
 * worker's usual turnaround.
 */
export async function waitForSmlStatus(dataSource: DataSource, participantId: string, target: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows: Array<{ sml_status: string }> = await dataSource.query(`SELECT sml_status FROM participants WHERE participant_id = $1`, [participantId]);
    if (rows[0]?.sml_status === target) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(100, Math.max(0, deadline - Date.now()))));
  }
}
