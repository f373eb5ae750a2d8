export { ksefDefinition } from './definition';
