import { Module } from '@nestjs/common';
import { InfrastructureModule } from '../infrastructure/infrastructure.module';
import { SuppliersAccountController } from './suppliers.controller';
import { SuppliersAccountService } from './suppliers.service';

/** `/v1/suppliers` (#47): its own module, beside the account's documents, so each part of #47 is one import of app.module.ts. */
@Module({
  imports: [InfrastructureModule],
  controllers: [SuppliersAccountController],
  providers: [SuppliersAccountService],
})
export class SuppliersAccountModule {}
