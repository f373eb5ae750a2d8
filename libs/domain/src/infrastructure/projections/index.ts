export * from './read-models';
export * from './authority-reports';
