import { ksefDefinition } from './definition';
import { ksefExamples } from './examples';
import { TRANSPORT_MODES } from './codec';
import { fa3Problems } from './fa3-check';

const { onboarding, documents } = ksefDefinition;
const supplier = onboarding.parse(ksefExamples.onboard.first.value);

/** The issues the area finds in a body (none when it takes it), so that a failure says what is wrong. */
function issuesOf(parse: () => unknown): unknown[] {
  try {
    parse();
    return [];
  } catch (error) {
    return (error as { issues?: unknown[] }).issues ?? [error];
  }
}

/** #47: the OpenAPI document's examples are requests the area takes (the `first` ones are sent as they are by an e2e test). */
describe('#47 the Polish request examples', () => {
  it.each(Object.entries(ksefExamples.onboard))('onboards %s', (_, example) => {
    expect(issuesOf(() => onboarding.parse(example.value))).toEqual([]);
  });

  it.each(Object.entries(ksefExamples.generate))('takes the invoice %s with transport_mode ksef, as an FA(3) KSeF takes', (_, example) => {
    expect(issuesOf(() => documents.parse(example.value, supplier, 'ksef'))).toEqual([]);
    const rendered = documents.render!(documents.parse(example.value, supplier, 'ksef'), supplier);
    expect(fa3Problems(String(rendered.bytes))).toEqual([]);
  });

  it.each(TRANSPORT_MODES)('takes the README\'s first invoice with transport_mode %s', (mode) => {
    expect(issuesOf(() => documents.parse(ksefExamples.generate.first.value, supplier, mode))).toEqual([]);
  });
});
