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
  return dynamoOperationRequests((clientCommand ?? command).constructor.name.replace(/Command$/, ''), input, tableArn);
};

/** A low-level attribute value (`{ S: 'WS#1' }`) as the document client would give it: keys are strings or numbers. */
const plain = (value: unknown): unknown => {
  const typed = value as { S?: string; N?: string } | undefined;
  return typed?.S ?? (typed?.N === undefined ? value : Number(typed.N));
};
const plainItem = (item: Item | undefined): Item | undefined =>
  item && Object.fromEntries(Object.entries(item).map(([name, value]) => [name, plain(value)]));

/**
 * The IAM requests of a DynamoDB operation as it goes over the wire, in the low-level JSON the service
 * receives (what the bundles test's proxy records), whichever client sent it.
 */
export const dynamoWireRequests = (operation: string, input: Record<string, any>, tableArn: string): IamRequest[] => {
  const values = input.ExpressionAttributeValues as Item | undefined;
  const requestItems = input.RequestItems as Record<string, any> | undefined;
  return dynamoOperationRequests(
    operation,
    {
      ...input,
      ...(input.Key && { Key: plainItem(input.Key) }),
      ...(input.Item && { Item: plainItem(input.Item) }),
      ...(values && { ExpressionAttributeValues: plainItem(values) }),
      ...(requestItems && {
        RequestItems: Object.fromEntries(
          Object.entries(requestItems).map(([table, request]) => [
            table,
            Array.isArray(request)
              ? request.map((write: any) => ({
                  ...(write.PutRequest && { PutRequest: { Item: plainItem(write.PutRequest.Item) } }),
                  ...(write.DeleteRequest && { DeleteRequest: { Key: plainItem(write.DeleteRequest.Key) } }),
                }))
              : { ...request, Keys: (request.Keys as Item[]).map(plainItem) },
          ]),
        ),
      }),
    },
    tableArn,
  );
};

const dynamoOperationRequests = (operation: string, input: Record<string, any>, tableArn: string): IamRequest[] => {
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
