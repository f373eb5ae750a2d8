import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { asyncApiDocument, loadInfrastructureConfig, platformEventRegistry, type AsyncApiDocument } from '@einvoice/domain/infrastructure';
import { areaEventPlugins } from '@einvoice/areas';

/** Where the gateway serves the AsyncAPI document of its Kafka topics: public, as /docs-json is. */
export const ASYNCAPI_PATH = '/asyncapi.json';

/**
 * The AsyncAPI document of this deployment's topics (issue 48): its registry's published event types,
 * the `prefix` parameter defaulting to its KAFKA_TOPIC_PREFIX, its topics' KAFKA_MAX_MESSAGE_BYTES. The same one `cli asyncapi` prints.
 */
export function deploymentAsyncApi(env: NodeJS.ProcessEnv = process.env): AsyncApiDocument {
  const config = loadInfrastructureConfig(env);
  return asyncApiDocument(platformEventRegistry(areaEventPlugins()), { prefix: config.kafkaPrefix, maxMessageBytes: config.kafkaMaxMessageBytes });
}

/**
 * Serves the document at GET /asyncapi.json, on the router itself like Swagger's /docs-json: no API
 * key (the guards are Nest's), not an operation of the OpenAPI document. Built once, at start: a
 * published event type without a generated schema stops the start, never a request.
 */
export function setupAsyncApi(app: NestFastifyApplication): void {
  const body = JSON.stringify(deploymentAsyncApi());
  app.getHttpAdapter().getInstance().get(ASYNCAPI_PATH, (_request, reply) => {
    void reply.header('content-type', 'application/json; charset=utf-8').send(body);
  });
}
