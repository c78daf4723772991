import { describe, expect, it } from 'vitest';
import { correlationLaneOf } from '#lib/signals/correlation-lane.ts';

const at = (minutes: number): Date => new Date(Date.UTC(2026, 10, 28, 12, minutes));
let workspaces = 0;
const newWorkspace = (): string => `ws-lane-${(workspaces += 1)}`;

describe("a new signal's correlation lane", () => {
  it("sends a service's first signal ahead and the rest of its flood behind", () => {
    const workspaceId = newWorkspace();
    const checkout = { serviceId: 'checkout', source: 'alertmanager' };
    expect(correlationLaneOf(workspaceId, checkout, at(0))).toBe('correlation-first');
    expect(correlationLaneOf(workspaceId, checkout, at(1))).toBe('correlation');
    expect(correlationLaneOf(workspaceId, checkout, at(4))).toBe('correlation');
  });

  it('sends a service ahead again after five quiet minutes', () => {
    const workspaceId = newWorkspace();
    const search = { serviceId: 'search', source: 'alertmanager' };
    expect(correlationLaneOf(workspaceId, search, at(0))).toBe('correlation-first');
    expect(correlationLaneOf(workspaceId, search, at(3))).toBe('correlation');
    // Each signal restarts the quiet: eight minutes after the first but five after the last.
    expect(correlationLaneOf(workspaceId, search, at(8))).toBe('correlation-first');
  });

  it('keeps services, sources and workspaces apart', () => {
    const workspaceId = newWorkspace();
    expect(correlationLaneOf(workspaceId, { serviceId: 'billing', source: 'grafana' }, at(0))).toBe(
      'correlation-first',
    );
    expect(correlationLaneOf(workspaceId, { serviceId: 'payments', source: 'grafana' }, at(0))).toBe(
      'correlation-first',
    );
    // Without a service, the source is the group; a service named like a source is still another group.
    expect(correlationLaneOf(workspaceId, { serviceId: null, source: 'grafana' }, at(0))).toBe('correlation-first');
    expect(correlationLaneOf(workspaceId, { serviceId: null, source: 'grafana' }, at(1))).toBe('correlation');
    expect(correlationLaneOf(workspaceId, { serviceId: 'grafana', source: 'other' }, at(1))).toBe('correlation-first');
    expect(correlationLaneOf(newWorkspace(), { serviceId: 'billing', source: 'grafana' }, at(1))).toBe(
      'correlation-first',
    );
  });

  it('forgets the least recent groups beyond ten thousand, which only sends them ahead again', () => {
    const workspaceId = newWorkspace();
    const first = { serviceId: 'service-0', source: 'grafana' };
    correlationLaneOf(workspaceId, first, at(0));
    for (let n = 1; n <= 10_000; n += 1)
      correlationLaneOf(workspaceId, { serviceId: `service-${n}`, source: 'grafana' }, at(0));
    expect(correlationLaneOf(workspaceId, first, at(1))).toBe('correlation-first');
    expect(correlationLaneOf(workspaceId, { serviceId: 'service-10000', source: 'grafana' }, at(1))).toBe(
      'correlation',
    );
  });
});
