import { afterEach, describe, expect, it } from 'vitest';
import type { FunctionDeclaration } from '#lib/ports/need.ts';
import { installPorts, portsOf } from '#lib/ports/port-set.ts';
import type { Ports } from '#lib/ports/ports.ts';
import { tableRead } from '#lib/ports/table/table-needs.ts';

const readsOnly: FunctionDeclaration = { name: 'reader', description: 'reads the table', needs: [tableRead] };

afterEach(() => installPorts(undefined));

describe('a function sees only the ports it declares', () => {
  it('locally, using an undeclared port throws, as it would in Lambda without the grant', () => {
    installPorts({ table: { name: 'local' }, mail: { send: async () => {} } } as unknown as Ports);
    const ports = portsOf(readsOnly);
    expect(ports.table).toEqual({ name: 'local' });
    expect(() => ports.mail).toThrow('the reader function does not declare the mail port');
  });

  it('in Lambda, builds a declared port from its environment on first use and nothing else', () => {
    const previous = process.env.TABLE_NAME;
    process.env.TABLE_NAME = 'service-table';
    try {
      const ports = portsOf({ ...readsOnly });
      expect(ports.table.name).toBe('service-table');
      expect(() => ports.queue).toThrow('does not declare the queue port');
      expect(ports.clock.now()).toBeInstanceOf(Date);
    } finally {
      process.env.TABLE_NAME = previous;
    }
  });
});
