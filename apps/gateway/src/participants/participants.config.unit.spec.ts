// #46 the service provider id the MLS comes back to: the SMP serves it, and in live mode it must be the
// one the AP certificate names, or the start is refused with the id to set.
import { type TestKeystores, TEST_KEYSTORE_PASSWORD, makeTestKeystores } from '../../../../test/support/peppol-keystores';
import { loadSmpSettings } from '../smp/smp-settings';
import { loadParticipantsConfig } from './participants.config';

describe('#46 participants settings: this access point\'s service provider id', () => {
  let pki: TestKeystores;
  beforeAll(() => {
    pki = makeTestKeystores();
  });
  afterAll(() => pki?.remove());

  const live = () => ({
    PEPPOL_MODE: 'live', AS4_PUBLIC_URL: 'https://ap.example.test/as4',
    PEPPOL_AP_KEYSTORE: pki.ap.p12, PEPPOL_AP_KEYSTORE_PASSWORD: TEST_KEYSTORE_PASSWORD,
    PEPPOL_SMP_KEYSTORE: pki.smp.p12, PEPPOL_SMP_KEYSTORE_PASSWORD: TEST_KEYSTORE_PASSWORD,
  });
  const config = (env: Record<string, string>) => loadParticipantsConfig(env, loadSmpSettings(env));

  it('given the id of the AP certificate\'s seat (PBE000001 → 0242:000001), then the SMP serves it as a participant', () => {
    expect(config({ ...live(), PEPPOL_SERVICE_PROVIDER_ID: '0242:000001' }).serviceProviderParticipantId).toBe('iso6523-actorid-upis::0242:000001');
  });

  it('given another id in live mode, then the start is refused, naming the id to set', () => {
    expect(() => config({ ...live(), PEPPOL_SERVICE_PROVIDER_ID: '0242:000111' }))
      .toThrow('PEPPOL_SERVICE_PROVIDER_ID is 0242:000111, but the AP certificate of PEPPOL_AP_KEYSTORE names the service provider 0242:000001 (its seat id): set PEPPOL_SERVICE_PROVIDER_ID=0242:000001.');
  });

  it('given sandbox mode, then no id is needed and none is served', () => {
    expect(config({}).serviceProviderParticipantId).toBeUndefined();
  });
});
