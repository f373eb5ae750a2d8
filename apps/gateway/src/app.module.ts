import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { areaControllers, areaProviders } from './areas/area-controllers';
import { ApiKeyGuard } from './auth/api-key.guard';
import { HealthController } from './health/health.controller';
import { HealthReport } from './health/health-report';
import { MetricsScrape } from './health/metrics-scrape';
import { OperatorServer } from './health/operator-server';
import { AllErrorsFilter } from './http/exception.filter';
import { IdempotencyGuard, IdempotentAnswers } from './idempotency/idempotency.guard';
import { InfrastructureModule } from './infrastructure/infrastructure.module';
import { RetentionJob } from './infrastructure/retention.job';
import { OutcomeWaiter } from './pipeline/outcome-waiter';
import { TenantKeys } from './auth/tenant-keys';
import { OAuthController } from './auth/oauth.controller';
import { OAuthTokens } from './auth/oauth-tokens.service';
import { TenantRateLimit } from './auth/tenant-rate-limit';
import { WorkerReadinessProbe } from './health/worker-readiness';
import { PgNotifications } from './infrastructure/pg-notifications';
import { AreaPipeline } from './pipeline/area-pipeline';
import { ParticipantsController } from './participants/participants.controller';
import { ParticipantsService } from './participants/participants.service';
import { SmpController } from './smp/smp.controller';
import { PeppolInboundController } from './peppol-inbound/peppol-inbound.controller';
import { PeppolInboundService } from './peppol-inbound/peppol-inbound.service';
import { webhooksControllers } from './webhooks/webhooks.controllers';
import { WebhooksService } from './webhooks/webhooks.service';
import { Mailer } from './mail/mailer';
import { AccountModule } from './account/account.module';
import { SuppliersAccountModule } from './account/suppliers.module';
import { AccountWebhooksModule } from './webhooks/account-webhooks.module';
import { SupplierChanges } from './suppliers/supplier-changes';
import { OperationsController } from './operations/operations.controller';
import { Operations } from './operations/operations.service';
import { WhoamiController } from './auth/whoami.controller';

@Module({
  imports: [InfrastructureModule, AccountModule, SuppliersAccountModule, AccountWebhooksModule],
  controllers: [HealthController, OAuthController, ...areaControllers, ParticipantsController, SmpController, PeppolInboundController, ...webhooksControllers, WhoamiController, OperationsController],
  providers: [
    ParticipantsService,
    PeppolInboundService,
    WebhooksService,
    ...areaProviders,
    AreaPipeline,
    Mailer,
    PgNotifications,
    OutcomeWaiter,
    SupplierChanges,
    Operations,
    TenantKeys,
    OAuthTokens,
    TenantRateLimit,
    WorkerReadinessProbe,
    HealthReport,
    MetricsScrape,
    OperatorServer,
    RetentionJob,
    IdempotentAnswers,
    // In this order: the key's tenant first. No global interceptor (idempotency.guard.ts says why);
    // a request's log context is opened by a Fastify hook (main.ts).
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    { provide: APP_GUARD, useClass: IdempotencyGuard },
    { provide: APP_FILTER, useClass: AllErrorsFilter },
  ],
})
export class AppModule {}
