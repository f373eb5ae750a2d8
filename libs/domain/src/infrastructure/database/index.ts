export * from './data-source';
export * from './document-attachments';
export * from './session-options';
export * from './tick-batch';
