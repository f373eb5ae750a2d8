/**
 * Per-endpoint isolation (#48 "one slow or dead endpoint never delays the others"; README "Lanes"). Every
 * attempt, whichever path sends it, first asks the gate of its endpoint (its subscription):
 *
 * - the FAST lane (first attempts sent at once, and the `<prefix>.webhooks` queue) takes an endpoint's
 *   delivery only while the endpoint is healthy (its last attempt here did not fail, and none of its attempts
 *   in flight has been waiting longer than `slowMs`) and has fewer than `perEndpoint` attempts in flight;
 * - a failing or slow endpoint's deliveries go to the FAILING lane (`<prefix>.webhooks-failing`, a worker of
 *   its own), where a failing endpoint has at most `failingPerEndpoint` attempts in flight, and one that answers,
 *   slowly, `perEndpoint` (slow is not broken: it is kept apart, not starved).
 *
 * So a dead endpoint holds at most a few of the fast lane's places, and only until it is seen slow (`slowMs`),
 * not for a whole timeout per delivery; the failing lane's places are shared by failing endpoints only. An
 * endpoint is healthy again at its first 2xx. What the gate knows is this process's: each dispatcher learns
 * an endpoint's state from its own attempts (one slow attempt each, at most).
 */
export interface EndpointGateSettings {
  /** Attempts in flight to one endpoint in the fast lane. */
  readonly perEndpoint: number;
  /** Attempts in flight to one failing endpoint (its last attempt failed) in the failing lane. */
  readonly failingPerEndpoint: number;
  /** An attempt in flight longer than this makes its endpoint slow: its next deliveries take the failing lane. */
  readonly slowMs: number;
}

export type Lane = 'fast' | 'failing';

/** The gate's answer: go (and say how it went when done), or why not. */
export type Admission =
  | { readonly admitted: true; readonly done: (acknowledged: boolean) => void }
  | { readonly admitted: false; readonly reason: 'failing' | 'busy' };

export function loadEndpointGateSettings(env: NodeJS.ProcessEnv = process.env): EndpointGateSettings {
  const positive = (value: string | undefined, fallback: number) => {
    const n = Number(value);
    return value !== undefined && Number.isFinite(n) && n > 0 ? Math.floor(n) : fallback;
  };
  return {
    perEndpoint: positive(env.WEBHOOK_ENDPOINT_IN_FLIGHT, 20),
    failingPerEndpoint: positive(env.WEBHOOK_FAILING_ENDPOINT_IN_FLIGHT, 2),
    slowMs: positive(env.WEBHOOK_SLOW_MS, 1_000),
  };
}

export class EndpointGate {
  /** When each attempt in flight started, by endpoint (few: at most perEndpoint + failingPerEndpoint each). */
  private readonly inFlight = new Map<string, number[]>();
  /** Endpoints whose last attempt here failed, none delivered since. */
  private readonly failing = new Set<string>();
  /** Per endpoint, the next free turn of a job told to wait (waitMs): later turns go to later jobs. */
  private readonly turns = new Map<string, number>();
  private turnsSweptAt = 0;

  constructor(
    readonly settings: EndpointGateSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `endpoint` is failing or slow (the fast lane sends it nothing). */
  isFailing(endpoint: string): boolean {
    if (this.failing.has(endpoint)) return true;
    const started = this.inFlight.get(endpoint);
    return started !== undefined && started.length > 0 && this.now() - started[0] > this.settings.slowMs;
  }

  /**
   * How long a job refused as `busy` waits before it asks again. In the fast lane a moment (a healthy endpoint's
   * attempts end in milliseconds). In the failing lane, where a dead endpoint's attempts run to their timeout, each
   * waiting job gets its own turn: the endpoint frees about `failingPerEndpoint` places per timeout, so the k-th job
   * waiting is told about k × timeout / failingPerEndpoint. Told one timeout each (as before), a dead endpoint's
   * backlog of n asked again n / failingPerEndpoint times per delivery, each time a read of PostgreSQL and two Redis
   * scripts (bench `webhooks`, 10% of endpoints dead: thousands of jobs cycling, the others' p99 3.3× the healthy one).
   */
  waitMs(endpoint: string, lane: Lane, timeoutMs: number): number {
    if (lane === 'fast') return 200;
    const now = this.now();
    if (now - this.turnsSweptAt > timeoutMs) {
      // Turns in the past are nobody's: forgotten (at most once per timeout, not on every call).
      this.turnsSweptAt = now;
      for (const [key, at] of this.turns) if (at < now) this.turns.delete(key);
    }
    const turn = Math.max(this.turns.get(endpoint) ?? 0, now + timeoutMs);
    this.turns.set(endpoint, turn + Math.ceil(timeoutMs / this.settings.failingPerEndpoint));
    return turn - now + Math.floor(Math.random() * 250);
  }

  admit(endpoint: string, lane: Lane): Admission {
    if (lane === 'fast' && this.isFailing(endpoint)) return { admitted: false, reason: 'failing' };
    const started = this.inFlight.get(endpoint) ?? [];
    const cap = lane === 'failing' && this.failing.has(endpoint) ? this.settings.failingPerEndpoint : this.settings.perEndpoint;
    if (started.length >= cap) return { admitted: false, reason: 'busy' };
    const at = this.now();
    started.push(at);
    this.inFlight.set(endpoint, started);
    let finished = false;
    return {
      admitted: true,
      done: (acknowledged) => {
        if (finished) return;
        finished = true;
        const index = started.indexOf(at);
        if (index >= 0) started.splice(index, 1);
        if (started.length === 0 && this.inFlight.get(endpoint) === started) this.inFlight.delete(endpoint);
        if (acknowledged) this.failing.delete(endpoint);
        else this.failing.add(endpoint);
      },
    };
  }
}
