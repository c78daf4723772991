import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';

/** Header names in lower case: senders and API Gateway keep whatever casing the client used. */
export const normalizeHeaders = (): MiddlewareObj<APIGatewayProxyEvent> => ({
  before: ({ event }) => {
    event.headers = Object.fromEntries(
      Object.entries(event.headers ?? {}).flatMap(([name, value]) =>
        value === undefined ? [] : [[name.toLowerCase(), value]],
      ),
    );
  },
});
