export * from './data-source';
export * from './document-attachments';
export * from './tick-batch';
