import type { Context } from 'aws-lambda';

/** The Lambda context a locally invoked handler receives, with a deadline like the real one. */
export const lambdaContext = (functionName: string, requestId: string, timeoutMs: number): Context => {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
};

/** What Lambda reports for an invocation that ran out of time. */
export class LambdaTimeoutError extends Error {
  constructor(functionName: string, timeoutMs: number) {
    super(`${functionName}: Task timed out after ${(timeoutMs / 1000).toFixed(2)} seconds`);
    this.name = 'LambdaTimeoutError';
  }
}

/**
 * Runs a handler as Lambda does, its timeout included: past it the invocation fails with the timeout error,
 * whatever the handler still does. Lambda freezes the handler then; here it runs on unobserved, so its late
 * writes can still land, which only makes a timeout less harmful locally than in AWS, never more.
 */
export const invokeWithin = async <T>(
  functionName: string,
  requestId: string,
  timeoutMs: number,
  run: (context: Context) => Promise<T>,
): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new LambdaTimeoutError(functionName, timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([run(lambdaContext(functionName, requestId, timeoutMs)), timedOut]);
  } finally {
    clearTimeout(timer);
  }
};
