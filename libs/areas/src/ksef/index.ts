export { ksefDefinition } from './definition';
export { ksefExamples } from './examples';
