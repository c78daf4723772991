import { TABLE_INDEXES, TABLE_PARTITION_KEY } from '#lib/store/table-schema.ts';
import type { IamRequest } from './policy-evaluator.ts';

type Item = Record<string, unknown>;

interface DocumentCommand {
  input: Record<string, any>;
  /** lib-dynamodb's commands wrap the low-level command whose name is the IAM action. */
  clientCommand?: object;
}

const partitionKeyOf = (indexName: string | undefined): string => {
  if (!indexName) return TABLE_PARTITION_KEY;
  const index = TABLE_INDEXES.find((candidate) => candidate.indexName === indexName);
  if (!index) throw new Error(`the table has no index ${indexName}`);
  return index.partitionKey;
};

/** The partition key value a KeyConditionExpression pins, `#name = :value` or `name = :value`. */
const queriedPartition = (input: Record<string, any>): unknown[] => {
  const attribute = partitionKeyOf(input.IndexName);
  const names: Record<string, string> = input.ExpressionAttributeNames ?? {};
  const values: Record<string, unknown> = input.ExpressionAttributeValues ?? {};
  const pinned = String(input.KeyConditionExpression ?? '')
    .split(/\s+AND\s+/i)
    .map((part) => /^\(?\s*(#?\w+)\s*=\s*(:\w+)\s*\)?$/.exec(part.trim()))
    .filter((match) => match && (names[match[1] as string] ?? match[1]) === attribute)
    .map((match) => values[match?.[2] as string]);
  if (pinned.length === 0) throw new Error(`no ${attribute} value in ${input.KeyConditionExpression}`);
  return pinned;
};

const leadingKeys = (values: unknown[]): Record<string, string[]> => ({
  'dynamodb:LeadingKeys': [...new Set(values.map(String))],
});

/**
 * The IAM request(s) one DynamoDB command is authorized as: `dynamodb:<operation>` on the table or the
 * queried index, with the partition key values as `dynamodb:LeadingKeys`; a batch is one request per
 * table carrying every item's partition key, which `ForAllValues` then checks one by one.
 */
export const dynamoRequests = (command: object, tableArn: string): IamRequest[] => {
  const { input, clientCommand } = command as DocumentCommand;
  const operation = (clientCommand ?? command).constructor.name.replace(/Command$/, '');
  const action = `dynamodb:${operation}`;
  const pk = (item: Item | undefined) => item?.[TABLE_PARTITION_KEY];
  switch (operation) {
    case 'BatchGetItem':
      return Object.values(input.RequestItems as Record<string, { Keys: Item[] }>).map(({ Keys }) => ({
        action,
        resource: tableArn,
        context: leadingKeys(Keys.map(pk)),
      }));
    case 'BatchWriteItem':
      return Object.values(
        input.RequestItems as Record<string, { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }[]>,
      ).map((writes) => ({
        action,
        resource: tableArn,
        context: leadingKeys(writes.map((write) => pk(write.PutRequest?.Item ?? write.DeleteRequest?.Key))),
      }));
    case 'Query':
    case 'Scan': {
      const resource = input.IndexName ? `${tableArn}/index/${input.IndexName}` : tableArn;
      const keys = operation === 'Query' ? queriedPartition(input) : [];
      return [{ action, resource, context: leadingKeys(keys) }];
    }
    default:
      return [{ action, resource: tableArn, context: leadingKeys([pk(input.Key ?? input.Item)]) }];
  }
};
