/**
 * Request-body examples of the OpenAPI document (`@ApiBody({ examples })`), kept by each area in its
 * `examples.ts`. The one named `first` of an operation is the README's first document of the area with
 * concrete values in place of what the README makes fresh per run: a unit test compares the two, and an
 * e2e test sends every `first` example through the client generated from the document.
 */
export interface RequestExample {
  readonly summary: string;
  readonly description?: string;
  readonly value: unknown;
}

export type RequestExamples = Readonly<Record<string, RequestExample>>;
