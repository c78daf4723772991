import { describe, expect, it } from 'vitest';
import { buildApp, inspect } from './template.ts';

/** Every function told which private networks workspace URLs may reach, with the value it is told. */
const toldFunctions = (context: Record<string, unknown>) => {
  const app = buildApp(context);
  const view = inspect(app);
  const functions = [...app.stack.groupFunctions, ['notification-worker', app.stack.notificationWorker] as const];
  return Object.fromEntries(
    functions.flatMap(([name, fn]) => {
      const value = view.functionResource(fn).Properties.Environment?.Variables?.OUTBOUND_PRIVATE_NETWORKS;
      return value === undefined ? [] : [[name, value]];
    }),
  );
};

describe('outboundPrivateNetworks context', () => {
  it('tells no function of a private network by default', () => {
    expect(toldFunctions({})).toEqual({});
  });

  it('tells the functions that call workspace URLs, and only them', () => {
    expect(toldFunctions({ outboundPrivateNetworks: '10.20.0.0/16, fd12:3456::/48' })).toEqual({
      business: '10.20.0.0/16,fd12:3456::/48',
      'code-engine': '10.20.0.0/16,fd12:3456::/48',
      integrations: '10.20.0.0/16,fd12:3456::/48',
      'notification-worker': '10.20.0.0/16,fd12:3456::/48',
    });
  });

  it('fails the synth on a value that is not a list of CIDRs', () => {
    expect(() => buildApp({ outboundPrivateNetworks: '10.20.0.0' })).toThrow(/outboundPrivateNetworks/);
    expect(() => buildApp({ outboundPrivateNetworks: 'intranet.corp/8' })).toThrow(/outboundPrivateNetworks/);
  });
});
