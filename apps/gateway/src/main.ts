import 'reflect-metadata';
import type { IncomingMessage } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { createLogger, withLogContext } from '@einvoice/domain';
import { announceKafkajsPatches, metrics, startMetrics, startTracing } from '@einvoice/domain/infrastructure';
import { announceOfficialChecks, announceServiceProviderId, areaLargeBodies, bodyLimitFor, largestBodyLimit } from '@einvoice/areas';
import { AppModule } from './app.module';
import { loadGatewayConfig } from './config';
import { fromFastifyError, toHttpError } from './http/error-response';
import { clientErrorHandler, refuseTunnel } from './http/client-errors';
import { MAX_PARAM_LENGTH, originFormOf, requestTargetError } from './http/request-target';
import { requestTimeoutOptions } from './http/request-timeout';
import { registerExactJsonParser } from './http/json-body';
import { registerFormParser } from './http/form-body';
import { OAUTH_TOKEN_PATH } from './auth/oauth-request';
import { setupOpenApi } from './http/openapi';
import { setupAsyncApi } from './http/asyncapi';
import { setupConsole } from './http/console-site';
import { RequestTextPipe } from './http/request-text.pipe';
import { endRequestSpan, requestTraceId, startRequestSpan } from './http/request-span';
import { REQUEST_ID_HEADER, correlationIdOf } from './http/request-id';
import { smpSettings } from './smp/smp-settings';
import { inboundLargeBodies } from './peppol-inbound/inbound-body';
import { OperatorServer } from './health/operator-server';

const log = createLogger('gateway');

const tooLarge = () => fromFastifyError({ code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413, message: '' });

export async function createGateway(): Promise<NestFastifyApplication> {
  // First: a configured but missing official artefact stops the start here, never a request.
  announceOfficialChecks(log);
  announceKafkajsPatches(log);
  announceServiceProviderId(log);
  // So do a missing, expired or mismatched Peppol certificate (smp/smp-settings.ts): one line says what the SMP publishes.
  const smp = smpSettings();
  log('info', 'SMP publishes', { ...smp.summary });
  for (const warning of smp.warnings) log('warn', warning);
  startMetrics('gateway');
  startTracing('gateway');
  const config = loadGatewayConfig();
  // The server takes the largest body any route accepts; each request is held to its own path's limit below:
  // the areas' larger ones, and the AS4 engine's inbound callback's (a whole received Peppol document).
  const largeBodies = [...areaLargeBodies(), ...inboundLargeBodies(config.inboundBodyLimitBytes, process.env.AS4_ENGINE_SECRET)];
  const ceiling = largestBodyLimit(config.bodyLimitBytes, largeBodies);
  const limitOf = (url: string) => bodyLimitFor(url, config.bodyLimitBytes, largeBodies);
  const adapter = new FastifyAdapter({
    bodyLimit: ceiling,
    trustProxy: true,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // An absolute-form target (`GET http://host/path`) is routed and checked as its path (http/request-target.ts).
    rewriteUrl: (request: IncomingMessage) => originFormOf(request.url ?? '/'),
    // The router's own errors (an undecodable URL, an overlong parameter) happen before Nest sees the request: same one error shape.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const requestId = correlationIdOf(request);
      const { statusCode, body } = toHttpError(fromFastifyError(error), requestId);
      void reply.status(statusCode).header(REQUEST_ID_HEADER, requestId).send(body);
    },
    // A request that does not arrive whole in time is a 408 (HTTP_REQUEST_TIMEOUT_MS, http/request-timeout.ts).
    ...requestTimeoutOptions(config.requestTimeoutMs),
    // What Node's HTTP parser refuses, before the router, and requests timed out: the same one error shape.
    clientErrorHandler: clientErrorHandler(config.requestTimeoutMs),
  });
  // Nest's own JSON parser is off: ours keeps amounts exact (http/json-body.ts).
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, adapter, { logger: ['error', 'warn'], bodyParser: false });
  const fastify = app.getHttpAdapter().getInstance();
  registerExactJsonParser(fastify, ceiling, limitOf);
  registerFormParser(fastify, config.bodyLimitBytes, (url) => url.split('?')[0] === OAUTH_TOKEN_PATH);
  // First: the request's id on its answer, whatever answers (a route, a hook, Fastify's own errors, the
  // 404 handler); the request's span; and the log context every line of its handling carries (the id as
  // its correlation id, the one its events carry, and trace id; the API key's guard adds the tenant).
  // Everything after this hook runs inside it, body parsing and the handler included.
  fastify.addHook('onRequest', (request, reply, done) => {
    const requestId = correlationIdOf(request);
    reply.header(REQUEST_ID_HEADER, requestId);
    startRequestSpan(request);
    withLogContext({ correlationId: requestId, traceId: requestTraceId(request.raw) }, done);
  });
  // Before any route reads the URL: a target that is not a path (a fragment, `*`...) is a 400. Then the
  // body limit, which holds for every method: a GET body is not parsed, but is refused all the same. The
  // connection stays open (Node discards the unread body), so the client can read the answer.
  // These two hooks take Fastify's callback, not a promise: every request runs them (issue 11).
  fastify.addHook('onRequest', (request, reply, done) => {
    const refusal = requestTargetError(request.url) ?? (Number(request.headers['content-length'] ?? 0) > limitOf(request.url) ? tooLarge() : undefined);
    if (refusal === undefined) return done();
    const { statusCode, body } = toHttpError(refusal, correlationIdOf(request));
    // Answered here: Fastify goes no further than a hook that sent the reply.
    void reply.status(statusCode).send(body);
  });
  // CONNECT host:port is not a request for a route: Node would close the connection without an answer.
  fastify.server.on('connect', refuseTunnel);
  const logsEachAnswer = process.env.LOG_LEVEL === 'debug';
  // Every answer counted and timed by its route's pattern (never the raw URL: bounded label values).
  fastify.addHook('onResponse', (request, reply, done) => {
    endRequestSpan(request, reply);
    const labels = { method: request.method, route: request.routeOptions?.url ?? 'unmatched', status: String(reply.statusCode) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
    // One line per answer at LOG_LEVEL=debug: which request id got which status (nothing built otherwise).
    if (logsEachAnswer) log('debug', 'request answered', { correlationId: correlationIdOf(request), ...labels, ms: Math.round(reply.elapsedTime) });
    done();
  });
  app.useGlobalPipes(new RequestTextPipe());
  setupOpenApi(app);
  setupAsyncApi(app);
  setupConsole(app);
  app.enableShutdownHooks();
  return app;
}

async function main(): Promise<void> {
  const config = loadGatewayConfig();
  const app = await createGateway();
  await app.listen(config.port, config.host);
  log('info', 'gateway listening', { url: `http://${config.host}:${config.port}` });
  // After the API: a gateway whose operator port is taken stops here, as one whose API port is.
  const operatorUrl = await app.get(OperatorServer).listen(config.operatorPort, config.operatorHost);
  log('info', 'operator endpoints listening', { url: operatorUrl, health: `${operatorUrl}/health`, metrics: `${operatorUrl}/metrics` });
}

if (require.main === module) {
  main().catch((error) => {
    log('error', 'gateway failed to start', { error: String(error?.stack ?? error) });
    process.exit(1);
  });
}
