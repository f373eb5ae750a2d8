import { Module } from '@nestjs/common';
import { InfrastructureModule } from '../infrastructure/infrastructure.module';
import { DocumentsController } from './documents.controller';
import { AccountDocuments } from './documents.service';

/** The account-wide API (`/v1`, issue #47, docs/account-api.md): one list of every area's documents and suppliers. */
@Module({
  imports: [InfrastructureModule],
  controllers: [DocumentsController],
  providers: [AccountDocuments],
})
export class AccountModule {}
