export * from './errors';
export * from './events';
export * from './document';
export * from './transmission';
export * from './supplier';
export * from './participant';
export * from './aggregate';
export * from './log';
export * from './ids';
export * from './webhook';
export * from './plugin';
export * from './authority-report';
export * from './authority-requests';
/** For deciders' given/when/then specs (STYLE.md), in any project. */
export { specification } from './test/given-when-then';
export * from './account';
