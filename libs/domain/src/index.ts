export * from './errors';
export * from './events';
export * from './document';
export * from './supplier';
export * from './aggregate';
export * from './log';
export * from './ids';
