export { jofotaraDefinition } from './definition';
export { jofotaraExamples } from './examples';
