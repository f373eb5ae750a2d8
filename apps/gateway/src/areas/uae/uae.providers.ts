import { UaeDocumentsService } from './uae-documents.service';
import { UaeFeedsService } from './uae-feeds.service';
import { UaeParticipantsService } from './uae-participants.service';

/** The UAE area's services, registered with its controllers (../area-controllers.ts). */
export const uaeProviders = [UaeParticipantsService, UaeDocumentsService, UaeFeedsService];
