export * from './area-list';
export * from './area-names';
