import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from '../app.module';
import { buildOpenApiDocument } from './openapi';

/**
 * The OpenAPI document without a running stack (`cli openapi`, the validator's test, the generated
 * client): Nest's preview mode reads the modules' and controllers' metadata without creating a
 * provider, so nothing connects to PostgreSQL, Kafka or Redis. The same function builds the document
 * the gateway serves at /docs-json.
 */
export async function openApiDocumentOffline(): Promise<ReturnType<typeof buildOpenApiDocument>> {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(), { preview: true, logger: false, abortOnError: false });
  try {
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}
