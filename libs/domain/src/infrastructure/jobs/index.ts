export * from './advisory-lock';
export * from './locked-periodic-job';
export * from './each-concurrently';
