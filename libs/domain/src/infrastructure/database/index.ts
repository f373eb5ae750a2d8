export * from './data-source';
export * from './document-attachments';
