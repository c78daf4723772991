import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

/**
 * The floor of the bundle budget: the least a function of this service can be, a handler that reads one
 * item through the DynamoDB document client. Built exactly as the functions are (bench/bundle-sizes.ts).
 */
const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event: { id: string }) =>
  (await client.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: event.id, sk: event.id } }))).Item;
