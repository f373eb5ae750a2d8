import { EndpointGate } from './endpoint-gate';

describe('#48 EndpointGate: one slow or dead endpoint never takes the others\' places', () => {
  let now = 0;
  const gate = () => new EndpointGate({ perEndpoint: 2, failingPerEndpoint: 1, slowMs: 1_000 }, () => now);
  const admitted = (a: ReturnType<EndpointGate['admit']>) => {
    if (!a.admitted) throw new Error(`refused: ${a.reason}`);
    return a;
  };

  beforeEach(() => (now = 0));

  it('the fast lane takes perEndpoint attempts of one endpoint at once, the others\' independently', () => {
    const g = gate();
    const a1 = admitted(g.admit('a', 'fast'));
    admitted(g.admit('a', 'fast'));
    expect(g.admit('a', 'fast')).toEqual({ admitted: false, reason: 'busy' });
    admitted(g.admit('b', 'fast'));
    a1.done(true);
    admitted(g.admit('a', 'fast'));
  });

  it('a failed attempt sends the endpoint to the failing lane until an attempt is acknowledged there', () => {
    const g = gate();
    admitted(g.admit('a', 'fast')).done(false);
    expect(g.admit('a', 'fast')).toEqual({ admitted: false, reason: 'failing' });
    const retry = admitted(g.admit('a', 'failing'));
    expect(g.admit('a', 'failing')).toEqual({ admitted: false, reason: 'busy' });
    retry.done(true);
    admitted(g.admit('a', 'fast'));
  });

  it('an attempt in flight longer than slowMs makes its endpoint slow before any timeout: its next deliveries take the failing lane', () => {
    const g = gate();
    const hanging = admitted(g.admit('a', 'fast'));
    now = 1_001;
    expect(g.isFailing('a')).toBe(true);
    expect(g.admit('a', 'fast')).toEqual({ admitted: false, reason: 'failing' });
    expect(g.isFailing('b')).toBe(false);
    hanging.done(true);
    expect(g.isFailing('a')).toBe(false);
  });

  it('a slow endpoint that answers keeps perEndpoint attempts in the failing lane; a failing one failingPerEndpoint', () => {
    const g = gate();
    const hanging = admitted(g.admit('slow', 'fast'));
    now = 1_001;
    admitted(g.admit('slow', 'failing'));
    expect(g.admit('slow', 'failing')).toEqual({ admitted: false, reason: 'busy' });
    hanging.done(true);
    admitted(g.admit('slow', 'failing'));
    admitted(g.admit('dead', 'fast')).done(false);
    admitted(g.admit('dead', 'failing'));
    expect(g.admit('dead', 'failing')).toEqual({ admitted: false, reason: 'busy' });
  });

  it('done twice counts once', () => {
    const g = gate();
    const a = admitted(g.admit('a', 'fast'));
    admitted(g.admit('a', 'fast'));
    a.done(true);
    a.done(true);
    expect(g.admit('a', 'fast').admitted).toBe(true);
    expect(g.admit('a', 'fast')).toEqual({ admitted: false, reason: 'busy' });
  });

  it('in the failing lane each waiting job of an endpoint gets its own later turn (timeout / failingPerEndpoint apart), other endpoints their own', () => {
    const g = new EndpointGate({ perEndpoint: 2, failingPerEndpoint: 2, slowMs: 1_000 }, () => now);
    const waits = [0, 1, 2, 3].map(() => g.waitMs('dead', 'failing', 5_000));
    waits.forEach((wait, k) => {
      expect(wait).toBeGreaterThanOrEqual(5_000 + k * 2_500);
      expect(wait).toBeLessThan(5_000 + k * 2_500 + 250);
    });
    expect(g.waitMs('other', 'failing', 5_000)).toBeLessThan(5_250);
    // Once the turns are past, the line starts again one timeout from now.
    now = 60_000;
    expect(g.waitMs('dead', 'failing', 5_000)).toBeLessThan(5_250);
    expect(g.waitMs('dead', 'fast', 5_000)).toBe(200);
  });
});
