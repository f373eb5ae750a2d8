import { loadGatewayConfig } from '../config';
import { PEPPOL_INBOUND_PATH, inboundBodyLimitBytes, inboundLargeBodies } from './inbound-body';

const MiB = 1024 * 1024;

describe('#46 the inbound callback\'s body limit (AS4_INBOUND_BODY_LIMIT_BYTES)', () => {
  it('is the topics\' largest message unless set (KAFKA_MAX_MESSAGE_BYTES, 32 MiB): the received document is one event in Kafka', () => {
    expect(loadGatewayConfig({}).inboundBodyLimitBytes).toBe(32 * MiB);
    expect(loadGatewayConfig({ KAFKA_MAX_MESSAGE_BYTES: String(64 * MiB) }).inboundBodyLimitBytes).toBe(64 * MiB);
    expect(loadGatewayConfig({ AS4_INBOUND_BODY_LIMIT_BYTES: ' 4194304 ' }).inboundBodyLimitBytes).toBe(4 * MiB);
    expect(inboundBodyLimitBytes({ AS4_INBOUND_BODY_LIMIT_BYTES: ' ' }, 1000)).toBe(1000);
  });

  it('stops the start, naming the setting, when it is not a number of bytes', () => {
    for (const wrong of ['100MB', '0', '-1', '1.5']) {
      expect(() => inboundBodyLimitBytes({ AS4_INBOUND_BODY_LIMIT_BYTES: wrong }, 33554432)).toThrow(
        `AS4_INBOUND_BODY_LIMIT_BYTES must be a number of bytes (default: KAFKA_MAX_MESSAGE_BYTES, 33554432); it is "${wrong}".`,
      );
    }
  });

  it('applies to the callback route only while it serves the engine (AS4_ENGINE_SECRET set)', () => {
    expect(inboundLargeBodies(1000, 'secret')).toEqual([{ bytes: 1000, pathPrefixes: [PEPPOL_INBOUND_PATH] }]);
    expect(inboundLargeBodies(1000, undefined)).toEqual([]);
    expect(inboundLargeBodies(1000, '')).toEqual([]);
  });
});
