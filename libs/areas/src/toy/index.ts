export { toyDefinition } from './definition';
export { FLAKY_FAILURES, ToySandboxAuthority } from './sandbox-authority';
export type { ToyPayload } from './sandbox-authority';
