export { RENDERED_DOCUMENT_FIELDS, asyncApiDocument, type AsyncApiDocument, type AsyncApiOptions } from './asyncapi-document';
