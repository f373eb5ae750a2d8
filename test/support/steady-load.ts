// Client load that runs while a test breaks the stack: what an integrator's software does.
import { randomUUID } from 'node:crypto';
import type { Answer, Client } from './http';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A request the gateway answered with something other than expected. */
export interface Refusal {
  readonly at: number;
  readonly path: string;
  readonly status: number;
  readonly body: unknown;
}

/**
 * Loops of POSTs, each with its own Idempotency-Key. A request that gets no answer (the gateway was
 * killed, or is restarting) is sent again with the same key until it is answered, so it counts once
 * whatever happened to the first try: as the README tells integrators to do. Records every moment
 * the gateway could not be reached, and every answer outside `expected`.
 */
export class SteadyLoad {
  readonly unreachable: number[] = [];
  readonly refusals: Refusal[] = [];
  private running = true;
  private readonly loops: Promise<void>[] = [];

  constructor(private readonly client: Client) {}

  /** POSTs until answered (same Idempotency-Key each time); undefined when the answer was not `expected`. */
  async post(path: string, body: unknown, headers: Record<string, string>, expected: number[]): Promise<Answer | undefined> {
    const key = randomUUID();
    for (;;) {
      let answer: Answer;
      try {
        answer = await this.client.post(path, body, { ...headers, 'idempotency-key': key });
      } catch {
        this.unreachable.push(Date.now());
        await sleep(100);
        continue;
      }
      if (expected.includes(answer.status)) return answer;
      this.refusals.push({ at: Date.now(), path, status: answer.status, body: answer.body });
      return undefined;
    }
  }

  /** Runs `step` over and over, `pauseMs` apart, until stop(). */
  loop(step: (n: number) => Promise<void>, pauseMs: number): void {
    this.loops.push(
      (async () => {
        for (let n = 0; this.running; n += 1) {
          await step(n);
          await sleep(pauseMs);
        }
      })(),
    );
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }
}
