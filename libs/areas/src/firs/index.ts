export { firsDefinition } from './definition';
export { paymentStatusChange } from './codec';
