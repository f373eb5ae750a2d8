import { verifactuDefinition } from './definition';
import { verifactuExamples } from './examples';

const { onboarding, documents } = verifactuDefinition;
const issuer = onboarding.parse(verifactuExamples.onboard.first.value);

/** The issues the area finds in a body (none when it takes it), so that a failure says what is wrong. */
function issuesOf(value: unknown, variant: string): unknown[] {
  try {
    documents.parse(value, issuer, variant);
    return [];
  } catch (error) {
    return (error as { issues?: unknown[] }).issues ?? [error];
  }
}

/** #47: the OpenAPI document's examples are requests the area takes (the `first` ones are sent as they are by an e2e test). */
describe('#47 the Spanish request examples', () => {
  it.each(Object.entries(verifactuExamples.onboard))('onboards %s', (_, example) => {
    expect(onboarding.parse(example.value).identifiers).toEqual([{ scheme: 'ES:NIF', id: '89890001K' }]);
  });

  it.each([
    ...Object.entries(verifactuExamples.generate).map(([name, e]) => ['generate', name, e.value] as const),
    ...Object.entries(verifactuExamples.rectify).map(([name, e]) => ['rectify', name, e.value] as const),
    ...Object.entries(verifactuExamples.cancel).map(([name, e]) => ['cancel', name, e.value] as const),
  ])('%s takes %s', (variant, _, value) => {
    expect(issuesOf(value, variant)).toEqual([]);
  });
});
