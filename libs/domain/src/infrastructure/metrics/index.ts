export * from './metrics';
export { type OperatorAnswer, type OperatorRoutes, metricsAnswer, serveMetrics, serveOperatorRoutes } from './metrics-server';
