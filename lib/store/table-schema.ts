/**
 * The single table's physical shape, shared by the CDK stack and the embedded local store so the two
 * cannot drift. What goes into each attribute is in docs/data-model.md and in the entity modules.
 */
export const TABLE_PARTITION_KEY = 'pk';
export const TABLE_SORT_KEY = 'sk';

/** Overloaded global secondary indexes, all projecting every attribute. */
export const TABLE_INDEXES = [
  { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  { indexName: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  { indexName: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk' },
  { indexName: 'gsi5', partitionKey: 'gsi5pk', sortKey: 'gsi5sk' },
] as const;

/** Epoch seconds after which DynamoDB may delete an item; code still compares it, since deletion lags. */
export const TTL_ATTRIBUTE = 'ttl';
