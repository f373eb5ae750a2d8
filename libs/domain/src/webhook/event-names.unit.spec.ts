import { checkWebhookEvents, webhookEventNames } from './event-names';

describe('webhook event names per area (README "Webhooks")', () => {
  it('accepts the MyInvois lifecycle and the Peppol received event for a Malaysian supplier', () => {
    expect(
      checkWebhookEvents('my', ['MyInvoisValid', 'MyInvoisInvalid', 'MyInvoisRejected', 'MyInvoisCancelled', 'MyInvoisRejectedByBuyer', 'PeppolReceived', 'DocumentReceived']),
    ).toEqual([]);
  });

  it('refuses an unknown name as events[i] FIELD.INVALID_VALUE, naming what is allowed', () => {
    expect(checkWebhookEvents('my', ['MyInvoisValid', 'MyInvoisSubmitted'])).toEqual([
      {
        path: 'events[1]',
        code: 'FIELD.INVALID_VALUE',
        message: expect.stringContaining('MyInvoisValid, MyInvoisInvalid, MyInvoisRejected, MyInvoisCancelled, MyInvoisRejectedByBuyer'),
        severity: 'error',
      },
    ]);
  });

  it('gives Peppol areas only the received event: a MyInvois name is refused there', () => {
    expect(checkWebhookEvents('de', ['PeppolReceived', 'DocumentReceived'])).toEqual([]);
    expect(checkWebhookEvents('de', ['DocumentReceived', 'MyInvoisValid']).map((i) => `${i.path} ${i.code}`)).toEqual(['events[1] FIELD.INVALID_VALUE']);
    expect(webhookEventNames('sg')).toEqual(['DocumentReceived', 'PeppolReceived']);
  });
});
