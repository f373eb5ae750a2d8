import { InfrastructureConfig, loadInfrastructureConfig } from '@einvoice/domain/infrastructure';
import { DEFAULT_REQUEST_TIMEOUT_MS } from './http/request-timeout';
import { inboundBodyLimitBytes } from './peppol-inbound/inbound-body';

/** Gateway settings (README "Configuration"). */
export interface GatewayConfig extends InfrastructureConfig {
  readonly host: string;
  readonly port: number;
  /** The operator endpoints' listener (detailed GET /health, GET /metrics; health/operator-server.ts): loopback by default. */
  readonly operatorHost: string;
  /** Its port; 0: any free one (the gateway logs which). */
  readonly operatorPort: number;
  /** Largest accepted request body; larger is a 413 before anything is parsed. */
  readonly bodyLimitBytes: number;
  /** Largest body of the AS4 engine's inbound callback, a whole received Peppol document (peppol-inbound/inbound-body.ts). */
  readonly inboundBodyLimitBytes: number;
  /** How long a request may take to arrive whole (headers and body) before a 408; 0: no limit (http/request-timeout.ts). */
  readonly requestTimeoutMs: number;
  /** Requests per second each tenant may send, sustained (0: no limit). */
  readonly tenantRatePerSecond: number;
  /** Requests a tenant may send at once above the sustained rate allows. */
  readonly tenantRateBurst: number;
}

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const infrastructure = loadInfrastructureConfig(env);
  return {
    ...infrastructure,
    host: env.HOST ?? '127.0.0.1',
    port: Number(env.PORT ?? 3000),
    operatorHost: env.OPERATOR_HOST || '127.0.0.1',
    operatorPort: numberOr(env.OPERATOR_PORT, 9463),
    bodyLimitBytes: Number(env.BODY_LIMIT_BYTES ?? 1_048_576),
    inboundBodyLimitBytes: inboundBodyLimitBytes(env, infrastructure.kafkaMaxMessageBytes),
    requestTimeoutMs: numberOr(env.HTTP_REQUEST_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS),
    tenantRatePerSecond: numberOr(env.TENANT_RATE_LIMIT_PER_S, 100),
    tenantRateBurst: numberOr(env.TENANT_RATE_BURST, 200),
  };
}

/** An unset or empty variable takes the default; `0` stays 0. */
const numberOr = (value: string | undefined, fallback: number): number => (value === undefined || value === '' ? fallback : Number(value));

export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
