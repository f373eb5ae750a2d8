import { MyInvoisAuthority } from './authority';
import { MyInvoisService } from './myinvois.service';
import { MyInvoisReceivedService } from './received.service';
import { MyInvoisSubmissionService } from './submission.service';

/** The MyInvois area's services, registered with its controllers (../area-controllers.ts). */
export const myInvoisProviders = [MyInvoisService, MyInvoisAuthority, MyInvoisSubmissionService, MyInvoisReceivedService];
