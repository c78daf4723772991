import type { CorrelationRule } from './correlation-rule.ts';

/**
 * The rules of a workspace that has not written rules of its own (docs/correlation.md). A first write
 * (create, update or delete) stores these under the same ids, so they can be edited or removed like any
 * rule. LOW signals match neither, so they never open incidents.
 */
export const DEFAULT_RULES: readonly CorrelationRule[] = [
  {
    id: 'default-high',
    name: 'High severity opens an incident at once',
    description: 'Each HIGH signal opens a HIGH incident, one per source and service while it is open.',
    order: 10,
    isActive: true,
    match: { severity: { in: ['HIGH'] } },
    groupBy: ['source', 'serviceId'],
    windowMinutes: 10,
    minSignals: 1,
    action: { priority: 'HIGH' },
    autoResolve: false,
    isDefault: true,
    createdAt: null,
    updatedAt: null,
  },
  {
    id: 'default-medium',
    name: 'Repeated medium severity on one service',
    description: 'Three MEDIUM signals of one service within 10 minutes open a MEDIUM incident.',
    order: 20,
    isActive: true,
    match: { severity: { in: ['MEDIUM'] } },
    groupBy: ['serviceId'],
    windowMinutes: 10,
    minSignals: 3,
    action: { priority: 'MEDIUM' },
    autoResolve: false,
    isDefault: true,
    createdAt: null,
    updatedAt: null,
  },
];
