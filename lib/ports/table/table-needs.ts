import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createTable, type Table } from '#lib/store/table.ts';
import { newAwsClient } from '../aws-client.ts';
import { ENV, requiredEnv, type Env } from '../env.ts';
import type { PortNeed, TableAccess } from '../need.ts';

const tableOf = (env: Env): Table =>
  createTable({ name: requiredEnv(env, ENV.table), client: newAwsClient(DynamoDBClient, {}) });

const tableNeed = (access: TableAccess): PortNeed => ({
  binding: { kind: 'table', access },
  build: { table: tableOf },
});

/** Reads anything of the table; writes only limiter windows. */
export const tableRead = tableNeed('read');
export const tableReadWrite = tableNeed('readWrite');
/** The rate limiter's windows only: what every route group needs even when its routes touch no data. */
export const limiterCounters = tableNeed('limiterCounters');
/** The `lastUsedAt` of API keys, which authenticating one refreshes: what a group taking API keys needs. */
export const apiKeyUsage: PortNeed = {
  binding: { kind: 'apiKeyUsage' },
  build: { table: tableOf },
};
