import type { FastifyReply } from 'fastify';

/** An answer whose status the service chose (200 once the authority answered, 202 while it has not). */
export interface Answer {
  readonly statusCode: 200 | 202;
  readonly body: unknown;
}

/** Sends an answer whose status the service chose. */
export async function sendAnswer(reply: FastifyReply, answer: Answer): Promise<void> {
  await reply.status(answer.statusCode).header('content-type', 'application/json; charset=utf-8').send(answer.body);
}
