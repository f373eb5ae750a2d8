import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { peppolAreaControllers } from './areas/peppol/peppol-area.controllers';
import { PeppolAreaService } from './areas/peppol/peppol-area.service';
import { ApiKeyGuard } from './auth/api-key.guard';
import { HealthController } from './health/health.controller';
import { AllErrorsFilter } from './http/exception.filter';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { InfrastructureModule } from './infrastructure/infrastructure.module';

@Module({
  imports: [InfrastructureModule],
  controllers: [HealthController, ...peppolAreaControllers],
  providers: [
    PeppolAreaService,
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
    { provide: APP_FILTER, useClass: AllErrorsFilter },
  ],
})
export class AppModule {}
