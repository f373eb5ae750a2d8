import { parseInvoice, parseOnboarding } from './codec';
import { peppolExamples } from '../peppol-ubl/examples';
import { profiles, type PeppolAreaCode } from '../peppol-ubl/profiles';

/**
 * #47 the OpenAPI document's examples are bodies the area accepts: each onboarding passes its checks, each
 * invoice every business rule with the supplier of the `first` onboarding (the one the e2e test onboards).
 */
describe('#47 the Peppol areas\' request examples', () => {
  const cases = (Object.keys(peppolExamples) as PeppolAreaCode[]).flatMap((code) => [
    ...Object.entries(peppolExamples[code].onboard).map(([name, example]) => ({ code, kind: 'onboard', name, body: example.value })),
    ...Object.entries(peppolExamples[code].invoice).map(([name, example]) => ({ code, kind: 'invoice', name, body: example.value })),
  ]);

  it.each(cases)('$code $kind $name is accepted', ({ code, kind, body }) => {
    if (kind === 'onboard') expect(() => parseOnboarding(profiles[code], body)).not.toThrow();
    else {
      const supplier = parseOnboarding(profiles[code], peppolExamples[code].onboard.first.value);
      expect(() => parseInvoice(profiles[code], body, supplier)).not.toThrow();
    }
  });
});
