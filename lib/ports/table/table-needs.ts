import { createTable } from '#lib/store/table.ts';
import { ENV, requiredEnv } from '../env.ts';
import type { PortNeed, TableAccess } from '../need.ts';

const tableNeed = (access: TableAccess): PortNeed => ({
  binding: { kind: 'table', access },
  build: { table: (env) => createTable({ name: requiredEnv(env, ENV.table) }) },
});

/** Reads anything of the table; writes only limiter windows. */
export const tableRead = tableNeed('read');
export const tableReadWrite = tableNeed('readWrite');
/** The rate limiter's windows only: what every route group needs even when its routes touch no data. */
export const limiterCounters = tableNeed('limiterCounters');
/** The `lastUsedAt` of API keys, which authenticating one refreshes: what a group taking API keys needs. */
export const apiKeyUsage: PortNeed = {
  binding: { kind: 'apiKeyUsage' },
  build: { table: (env) => createTable({ name: requiredEnv(env, ENV.table) }) },
};
