export * from './commit-ordered-feed';
