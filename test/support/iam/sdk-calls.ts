import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { onAwsClient } from '#lib/ports/aws-client.ts';

/** One command as it left an SDK client: the client's and the command's names, and the input it was sent with. */
export interface SdkCall {
  /** `DynamoDBClient`, `SQSClient`, ... */
  client: string;
  /** `PutItem`, `SendMessageBatch`, ... */
  command: string;
  input: Record<string, any>;
}

/**
 * Every request the recording middleware let through carries this header, so a recorder on the wire can
 * tell a call of a client the factory made from one of a client made elsewhere, which the proof would miss.
 */
export const RECORDED_HEADER = 'x-least-privilege-recorded';

/** Binary values (an S3 body, a KMS blob) as their length: IAM never judges them, and calls travel as JSON. */
const jsonSafe = (input: object): Record<string, any> =>
  JSON.parse(
    JSON.stringify(input, function (this: Record<string, unknown>, key, value) {
      const original = this[key];
      return ArrayBuffer.isView(original) ? `(${original.byteLength} bytes)` : value;
    }),
  );

/**
 * Adds to every client the factory (lib/ports/aws-client.ts) makes from now on a middleware of the build
 * step, after serialization's input is final (the document client has marshalled its items) and before
 * signing and retries, so each command is reported once, with what AWS would authorize it by.
 */
export const recordSdkCalls = (report: (call: SdkCall) => void): void => {
  // A call on an existing gateway key is authorized by that key's tags, which the call does not carry: those it
  // was created with, as AWS keeps them.
  const keyTags = new Map<string, unknown>();
  onAwsClient((client) => {
    (client as unknown as Pick<DynamoDBClient, 'middlewareStack'>).middlewareStack.add(
      (next, context) => async (args) => {
        const command = (context.commandName ?? '').replace(/Command$/, '');
        const input = jsonSafe(args.input);
        if (typeof input.apiKey === 'string') input.resourceTags = keyTags.get(input.apiKey) ?? {};
        report({ client: context.clientName ?? '(unnamed client)', command, input });
        const request = args.request as { headers?: Record<string, string> } | undefined;
        if (request?.headers) request.headers[RECORDED_HEADER] = '1';
        const result = await next(args);
        const created = (result.output as { id?: string } | undefined)?.id;
        if (command === 'CreateApiKey' && created) keyTags.set(created, input.tags);
        return result;
      },
      { step: 'build', name: 'recordIamRequests' },
    );
  });
};
