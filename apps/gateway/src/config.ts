import { InfrastructureConfig, loadInfrastructureConfig } from '@einvoice/domain/infrastructure';

/** Gateway settings (README "Configuration"). */
export interface GatewayConfig extends InfrastructureConfig {
  readonly host: string;
  readonly port: number;
  /** Largest accepted request body; larger is a 413 before anything is parsed. */
  readonly bodyLimitBytes: number;
  /** `off` runs a gateway without the outbox relay (another instance relays). */
  readonly outboxRelay: boolean;
}

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return {
    ...loadInfrastructureConfig(env),
    host: env.HOST ?? '127.0.0.1',
    port: Number(env.PORT ?? 3000),
    bodyLimitBytes: Number(env.BODY_LIMIT_BYTES ?? 1_048_576),
    outboxRelay: (env.OUTBOX_RELAY ?? 'on') !== 'off',
  };
}

export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
