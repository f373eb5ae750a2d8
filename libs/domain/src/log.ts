/**
 * Structured logging shared by the apps: one JSON line per entry on stderr. Every line carries what is
 * known of the work it belongs to (`withLogContext`: the correlation id, tenant, area, document, event,
 * trace id), set once where that work starts (an HTTP request, a Kafka message). Never log secrets or
 * bodies; a field whose name says it is a secret is written `[redacted]` all the same.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type Logger = (level: LogLevel, message: string, fields?: Record<string, unknown>) => void;

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Field names that hold secrets (API keys, client secrets, passwords, tokens, signatures, private keys). */
export const SECRET_FIELD = /secret|password|passwd|token|api[_-]?key|authorization|private[_-]?key|^sign$|credential/i;

const context = new AsyncLocalStorage<Record<string, unknown>>();

/** Runs `work` with these fields on every log line it writes (added to the fields already in force). */
export function withLogContext<T>(fields: Readonly<Record<string, unknown>>, work: () => T): T {
  // One object, no intermediate arrays: every request and every Kafka message opens a context.
  const store: Record<string, unknown> = { ...context.getStore() };
  for (const key in fields) {
    const value = fields[key];
    if (value !== undefined && value !== null) store[key] = value;
  }
  return context.run(store, work);
}

/**
 * Adds fields to the log context in force, for the rest of its work: what is learnt on the way (an
 * HTTP request's tenant, once its key was checked). A context opened inside it before keeps what it had.
 */
export function addToLogContext(fields: Readonly<Record<string, unknown>>): void {
  const store = context.getStore();
  if (!store) return;
  for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== null) store[key] = value;
}

/** The fields in force here (for a log line written by other means, such as the Kafka client's logger). */
export const logContextFields = (): Readonly<Record<string, unknown>> => context.getStore() ?? {};

function redacted(fields: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || !SECRET_FIELD.test(key) || /^(tokenType|token_type)$/.test(key)) continue;
    out ??= { ...fields };
    out[key] = '[redacted]';
  }
  return out ?? fields;
}

export function createLogger(app: string, minimum: LogLevel = (process.env.LOG_LEVEL as LogLevel) ?? 'info'): Logger {
  return (level, message, fields = {}) => {
    if (order[level] < (order[minimum] ?? 20)) return;
    process.stderr.write(`${JSON.stringify({ level, time: new Date().toISOString(), app, message, ...context.getStore(), ...redacted(fields) })}\n`);
  };
}
