import { InfrastructureConfig, loadInfrastructureConfig } from '@einvoice/domain/infrastructure';

/** Gateway settings (README "Configuration"). */
export interface GatewayConfig extends InfrastructureConfig {
  readonly host: string;
  readonly port: number;
  /** Largest accepted request body; larger is a 413 before anything is parsed. */
  readonly bodyLimitBytes: number;
  /** `off` runs a gateway without the outbox relay (another instance relays). */
  readonly outboxRelay: boolean;
  /** Requests per second each tenant may send, sustained (0: no limit). */
  readonly tenantRatePerSecond: number;
  /** Requests a tenant may send at once above the sustained rate allows. */
  readonly tenantRateBurst: number;
}

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return {
    ...loadInfrastructureConfig(env),
    host: env.HOST ?? '127.0.0.1',
    port: Number(env.PORT ?? 3000),
    bodyLimitBytes: Number(env.BODY_LIMIT_BYTES ?? 1_048_576),
    outboxRelay: (env.OUTBOX_RELAY ?? 'on') !== 'off',
    tenantRatePerSecond: numberOr(env.TENANT_RATE_LIMIT_PER_S, 100),
    tenantRateBurst: numberOr(env.TENANT_RATE_BURST, 200),
  };
}

/** An unset or empty variable takes the default; `0` stays 0. */
const numberOr = (value: string | undefined, fallback: number): number => (value === undefined || value === '' ? fallback : Number(value));

export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
