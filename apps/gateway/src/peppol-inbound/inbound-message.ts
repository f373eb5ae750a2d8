/** What the engine posts for each AS4 user message it received (docs/peppol-as4.md "Inbound"). */
export interface InboundMessage {
  /** AS4 MessageId: the key of de-duplication. */
  readonly messageId: string;
  readonly conversationId?: string;
  readonly senderParticipantId: string;
  readonly receiverParticipantId: string;
  readonly documentTypeId: string;
  readonly processId: string;
  readonly countryC1?: string;
  /** SBDH InstanceIdentifier: what an MLS answering it names. */
  readonly instanceIdentifier: string;
  readonly payload: string;
  readonly receivedAt?: string;
  /** PEM of the sending access point's (C2) certificate: its service provider id, where an MLS goes. */
  readonly senderCertificate?: string;
  /** The SBDH's MLS_TO (MLS 1.0 §4), when the sender named where its MLS goes. */
  readonly mlsTo?: string;
  /** The SBDH's MLS_TYPE (MLS 1.0 §4): `FAILURE_ONLY` asks for a negative MLS only. */
  readonly mlsType?: string;
}

const REQUIRED = ['messageId', 'senderParticipantId', 'receiverParticipantId', 'documentTypeId', 'processId', 'instanceIdentifier', 'payload'] as const;
const OPTIONAL = ['conversationId', 'countryC1', 'receivedAt', 'senderCertificate', 'mlsTo', 'mlsType'] as const;

/** The message of a callback body, or what is wrong with it (a field missing or not a string). */
export function readInboundMessage(body: unknown): { readonly message: InboundMessage } | { readonly problem: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { problem: 'The body is not a JSON object.' };
  const fields = body as Record<string, unknown>;
  const missing = REQUIRED.filter((name) => typeof fields[name] !== 'string' || (fields[name] as string).length === 0);
  if (missing.length) return { problem: `Missing or not a string: ${missing.join(', ')}.` };
  const wrong = OPTIONAL.filter((name) => fields[name] !== undefined && fields[name] !== null && typeof fields[name] !== 'string');
  if (wrong.length) return { problem: `Not a string: ${wrong.join(', ')}.` };
  const message = Object.fromEntries([...REQUIRED, ...OPTIONAL].filter((name) => typeof fields[name] === 'string').map((name) => [name, fields[name]]));
  return { message: message as unknown as InboundMessage };
}
