/**
 * The toy area (README.md): used only by the test suite, added exactly as a real area is, to prove
 * that an area is its folder and one registry line (docs/adding-an-area.md): the pipeline's own routes
 * serve it (apps/gateway/src/pipeline/area-routes.controller.ts).
 */
import { type SupplierProfile, validationError } from '@einvoice/domain';
import { validateBody } from '../shared/validate';
import { reviseByOnboarding } from '../shared/revise';
import type { AreaDefinition } from '../registry/area';
import { toySandbox, toySandboxVerdicts } from './migrations';
import { renderToyDocument } from './render';
import { checkToyDocument } from './rules';
import { ToySandboxAuthority } from './sandbox-authority';
import { ToyDocumentBody, ToyOnboardingBody } from './schema';

function parseToyOnboarding(body: unknown): SupplierProfile {
  const dto = validateBody(ToyOnboardingBody, body);
  return { registeredName: dto.registered_name, identifiers: [{ scheme: 'TOY:TAX', id: dto.tax_id }], country: 'TY' };
}

/** Toyland. */
export const toyDefinition: AreaDefinition = {
  code: 'toy',
  name: 'Toyland',
  ruleSetId: 'toy:invoice:1.0',
  routePrefix: 'toy/einvoice',
  // `SLOW-` documents get their verdict by poll (README.md): asked every 200 ms, 10 times at most.
  authority: { answer: 'sync', poll: { intervalMs: 200, maxPolls: 10 }, connector: ({ query }) => new ToySandboxAuthority(query) },
  webhookEvents: [],
  onboarding: {
    bodyClass: ToyOnboardingBody,
    parse: parseToyOnboarding,
    revise: reviseByOnboarding({
      fields: ['registered_name'],
      bodyOf: (profile) => ({ registered_name: profile.registeredName, tax_id: profile.identifiers[0]?.id }),
      parse: parseToyOnboarding,
    }),
  },
  documents: {
    bodyClass: ToyDocumentBody,
    parse(body, supplier) {
      const dto = validateBody(ToyDocumentBody, body);
      const issues = checkToyDocument(dto);
      if (issues.length) throw validationError(issues);
      const taxId = supplier.identifiers.find((i) => i.scheme === 'TOY:TAX')?.id ?? '';
      return { number: dto.ID, type: 'invoice', fields: { ...dto }, payload: { taxId, number: dto.ID } };
    },
    render: renderToyDocument,
  },
  events: { name: 'area:toy', area: 'toy', streams: {}, projectors: {}, migrations: [toySandbox, toySandboxVerdicts] },
  testOnly: true,
};
