import { Module } from '@nestjs/common';
import { InfrastructureModule } from '../infrastructure/infrastructure.module';
import { AccountWebhooksController } from './account-webhooks.controller';
import { AccountWebhooksService } from './account-webhooks.service';

/** `/v1/webhooks` (#48): its own module, as `/v1/suppliers`, so the account-wide endpoints are one import of app.module.ts. */
@Module({
  imports: [InfrastructureModule],
  controllers: [AccountWebhooksController],
  providers: [AccountWebhooksService],
})
export class AccountWebhooksModule {}
