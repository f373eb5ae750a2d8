export * from './metrics';
export { serveMetrics } from './metrics-server';
