import { IsDefined, IsEmail, IsString, MaxLength } from 'class-validator';

/** `POST …/access-code/send`: both mandatory (seed 002 "Poland"). */
export class AccessCodeBody {
  @IsDefined({ message: 'is required' })
  @IsString({ message: 'must be a string' })
  @MaxLength(64, { message: 'must be at most 64 characters' })
  document_id!: string;

  @IsDefined({ message: 'is required' })
  @IsString({ message: 'must be a string' })
  @MaxLength(254, { message: 'must be at most 254 characters' })
  @IsEmail({}, { message: 'must be an e-mail address' })
  recipient_email!: string;
}
