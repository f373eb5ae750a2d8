export { firsDefinition } from './definition';
export { paymentStatusChange } from './codec';
export { firsExamples } from './examples';
