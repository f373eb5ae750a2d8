export { firsDefinition } from './definition';
