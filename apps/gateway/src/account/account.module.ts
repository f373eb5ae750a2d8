import { Module } from '@nestjs/common';
import { InfrastructureModule } from '../infrastructure/infrastructure.module';
import { DocumentsController } from './documents.controller';
import { AccountDocuments } from './documents.service';
import { EventsController } from './events.controller';
import { AccountEvents } from './events.service';

/** The account-wide API (`/v1`, issue #47, docs/account-api.md): one list of every area's documents and suppliers, the account's events (#48). */
@Module({
  imports: [InfrastructureModule],
  controllers: [DocumentsController, EventsController],
  providers: [AccountDocuments, AccountEvents],
})
export class AccountModule {}
