export * from './area-list';
