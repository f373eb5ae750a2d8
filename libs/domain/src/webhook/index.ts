export * from './body';
export * from './event-names';
export * from './signature';
export * from './url-policy';
export * from './secret-box';
export * from './retry-schedule';
