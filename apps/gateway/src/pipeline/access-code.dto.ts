import { IsDefined, IsEmail, IsString, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

/** `POST …/access-code/send`: both mandatory (seed 002 "Poland"). */
export class AccessCodeBody {
  @JSONSchema({ description: 'The document to share: its id as its area answered it (Poland: DocumentID). Unknown in your account: 404.', example: '01938a7e-5c2b-7d41-9f3e-6a1b2c3d4e5f' })
  @IsDefined({ message: 'is required' })
  @IsString({ message: 'must be a string' })
  @MaxLength(64, { message: 'must be at most 64 characters' })
  document_id!: string;

  @JSONSchema({ description: 'Where the code goes: one e-mail address, which receives the code, the link that opens the document and the link of its XML.', example: 'ksiegowosc@nabywca.example' })
  @IsDefined({ message: 'is required' })
  @IsString({ message: 'must be a string' })
  @MaxLength(254, { message: 'must be at most 254 characters' })
  @IsEmail({}, { message: 'must be an e-mail address' })
  recipient_email!: string;
}
