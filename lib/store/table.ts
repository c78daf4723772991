import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** The single table as repositories see it: its name and a document client. */
export interface Table {
  name: string;
  doc: DynamoDBDocumentClient;
}

export interface TableOptions {
  name: string;
  /** Made by the ports' client factory (lib/ports/aws-client.ts), which the store, below the ports, cannot import. */
  client: DynamoDBClient;
}

export const createTable = ({ name, client }: TableOptions): Table => ({
  name,
  doc: DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  }),
});
