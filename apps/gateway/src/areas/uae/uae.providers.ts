import { UaeDocumentsService } from './uae-documents.service';
import { UaeFeedsService } from './uae-feeds.service';
import { UaeParticipantsService } from './uae-participants.service';

/** The UAE area's services (apps/gateway/src/app.module.ts). */
export const uaeProviders = [UaeParticipantsService, UaeDocumentsService, UaeFeedsService];
