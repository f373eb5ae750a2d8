export { jofotaraDefinition } from './definition';
