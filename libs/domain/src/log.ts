/** Structured logging shared by the apps: one JSON line per entry on stderr. Never log secrets or bodies. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type Logger = (level: LogLevel, message: string, fields?: Record<string, unknown>) => void;

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export function createLogger(app: string, minimum: LogLevel = (process.env.LOG_LEVEL as LogLevel) ?? 'info'): Logger {
  return (level, message, fields = {}) => {
    if (order[level] < (order[minimum] ?? 20)) return;
    process.stderr.write(`${JSON.stringify({ level, time: new Date().toISOString(), app, message, ...fields })}\n`);
  };
}
