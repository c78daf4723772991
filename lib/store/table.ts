import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** The single table as repositories see it: its name and a document client. */
export interface Table {
  name: string;
  doc: DynamoDBDocumentClient;
}

export interface TableOptions {
  name: string;
  client?: DynamoDBClient;
}

export const createTable = ({ name, client = new DynamoDBClient({}) }: TableOptions): Table => ({
  name,
  doc: DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  }),
});
