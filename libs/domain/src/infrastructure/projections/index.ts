export * from './read-models';
export * from './authority-reports';
export * from './document-bytes';
export * from './account-events-channel';
