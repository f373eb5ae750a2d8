// class-transformer's metadata storage is exported at this path for readers of its @Type metadata (as
// class-validator-jsonschema's README documents), but its package ships the type under types/.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
