import { DEFAULT_INBOUND_BODY_LIMIT_BYTES, PEPPOL_INBOUND_PATH, inboundBodyLimitBytes, inboundLargeBodies } from './inbound-body';

describe('#46 the inbound callback\'s body limit (AS4_INBOUND_BODY_LIMIT_BYTES)', () => {
  it('is 100 MiB unless set, and a setting that is not a number of bytes stops the start naming it', () => {
    expect(inboundBodyLimitBytes({})).toBe(104_857_600);
    expect(inboundBodyLimitBytes({ AS4_INBOUND_BODY_LIMIT_BYTES: ' ' })).toBe(DEFAULT_INBOUND_BODY_LIMIT_BYTES);
    expect(inboundBodyLimitBytes({ AS4_INBOUND_BODY_LIMIT_BYTES: '4194304' })).toBe(4 * 1024 * 1024);
    for (const wrong of ['100MB', '0', '-1', '1.5']) {
      expect(() => inboundBodyLimitBytes({ AS4_INBOUND_BODY_LIMIT_BYTES: wrong })).toThrow(`AS4_INBOUND_BODY_LIMIT_BYTES must be a number of bytes (default 104857600, 100 MiB); it is "${wrong}".`);
    }
  });

  it('applies to the callback route only while it serves the engine (AS4_ENGINE_SECRET set)', () => {
    expect(inboundLargeBodies(1000, 'secret')).toEqual([{ bytes: 1000, pathPrefixes: [PEPPOL_INBOUND_PATH] }]);
    expect(inboundLargeBodies(1000, undefined)).toEqual([]);
    expect(inboundLargeBodies(1000, '')).toEqual([]);
  });
});
