import type { FunctionDeclaration } from '#lib/ports/need.ts';
import { USAGE_PLAN_TAG } from '#lib/ports/usage-plan/usage-plan.ts';
import { ENV } from '#lib/ports/env.ts';
import type { PortObserver } from '#lib/ports/port-set.ts';
import type { PortName, Ports } from '#lib/ports/ports.ts';
import { QUEUE_URL_ENV } from '#lib/ports/queue/queue-need.ts';
import type { Table } from '#lib/store/table.ts';
import type { FunctionPolicy } from './function-policies.ts';
import type { IamRequest } from './policy-evaluator.ts';
import { dynamoRequests } from './dynamo-requests.ts';
import { TEST_DEPLOYMENT, type Deployment } from './template-resolver.ts';

/** One authorization a function's role would face, and the step of the test that caused it. */
export interface RecordedCall extends IamRequest {
  fn: string;
  during: string;
}

export interface CallRecorder {
  observe: PortObserver;
  /** Names the step that the next calls belong to, for the report. */
  during(step: string): void;
  calls(): RecordedCall[];
  /** Calls that could not even be translated: an environment variable the stack does not set. */
  problems: string[];
}

type Wrap<P extends PortName> = (port: Ports[P], record: (requests: () => IamRequest[]) => void) => Ports[P];

/**
 * Wraps each port a function uses so every call becomes the IAM request(s) AWS would authorize for that
 * function's Lambda role: the action the AWS adapter's SDK command maps to, on the resource named by the
 * function's environment as the stack sets it (so a missing variable is caught too).
 */
export const createCallRecorder = (
  policies: ReadonlyMap<string, FunctionPolicy>,
  deployment: Deployment = TEST_DEPLOYMENT,
): CallRecorder => {
  const { partition, region, account } = deployment;
  const recorded = new Map<string, RecordedCall>();
  const problems: string[] = [];
  let step = 'start';
  const wrapped = new WeakMap<object, Map<string, unknown>>();
  const invoked = new Set<string>();

  const policyOf = (fn: string): FunctionPolicy => {
    const policy = policies.get(fn);
    if (!policy) throw new Error(`the template has no function ${fn}`);
    return policy;
  };
  const envOf = (policy: FunctionPolicy, name: string): string => {
    const value = policy.env[name];
    if (!value) throw new Error(`the ${policy.name} function has no ${name} in its environment`);
    return value;
  };
  const apiGateway = (path: string) => `arn:${partition}:apigateway:${region}::${path}`;
  const queueArn = (url: string): string => {
    const [, queueAccount, name] = new URL(url).pathname.split('/');
    const queueRegion = new URL(url).hostname.split('.')[1];
    return `arn:${partition}:sqs:${queueRegion}:${queueAccount}:${name}`;
  };

  const add = (fn: string, requests: () => IamRequest[]): void => {
    try {
      for (const request of requests()) {
        const call = { ...request, fn, during: step };
        const key = JSON.stringify([fn, request.action, request.resource, request.context]);
        if (!recorded.has(key)) recorded.set(key, call);
      }
    } catch (error) {
      problems.push(`${fn}, during ${step}: ${(error as Error).message}`);
    }
  };

  /** What Lambda does with the function's role around every invocation: its logs and its queue's messages. */
  const runtimeRequests = (policy: FunctionPolicy): IamRequest[] => {
    const stream = `arn:${partition}:logs:${region}:${account}:log-group:${policy.logGroupName}:log-stream:2030/01/01/[$LATEST]0`;
    return [
      { action: 'logs:CreateLogStream', resource: stream },
      { action: 'logs:PutLogEvents', resource: stream },
      ...policy.consumes.flatMap((queue) =>
        ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'].map((action) => ({
          action,
          resource: queue,
        })),
      ),
    ];
  };

  const wrappers = (policy: FunctionPolicy): { [P in PortName]?: Wrap<P> } => ({
    table: (table, record): Table => {
      const doc = Object.create(table.doc, {
        send: {
          value: (command: Parameters<Table['doc']['send']>[0], ...rest: unknown[]) => {
            record(() =>
              dynamoRequests(
                command,
                `arn:${partition}:dynamodb:${region}:${account}:table/${envOf(policy, ENV.table)}`,
              ),
            );
            return (table.doc.send as (...args: unknown[]) => unknown)(command, ...rest);
          },
        },
      });
      return { name: table.name, doc };
    },
    queue: (queue, record) => ({
      send: (name, messages) => {
        record(() => [{ action: 'sqs:SendMessage', resource: queueArn(envOf(policy, QUEUE_URL_ENV[name])) }]);
        return queue.send(name, messages);
      },
    }),
    workflow: (workflow, record) => ({
      start: (name, input, executionName) => {
        record(() => [{ action: 'states:StartExecution', resource: envOf(policy, ENV.analysisStateMachineArn) }]);
        return workflow.start(name, input, executionName);
      },
    }),
    mail: (mailer, record) => ({
      get appUrl() {
        return mailer.appUrl;
      },
      send: (message) => {
        record(() => [{ action: 'sqs:SendMessage', resource: queueArn(envOf(policy, QUEUE_URL_ENV.mail)) }]);
        return mailer.send(message);
      },
    }),
    mailDelivery: (delivery, record) => ({
      deliver: (message) => {
        // SES authorizes the sender's identity, and in the sandbox each recipient's too.
        record(() => {
          const from = envOf(policy, ENV.mailFrom);
          const context = { 'ses:FromAddress': from };
          return [from, message.to].map((identity) => ({
            action: 'ses:SendEmail',
            resource: `arn:${partition}:ses:${region}:${account}:identity/${identity}`,
            context,
          }));
        });
        return delivery.deliver(message);
      },
    }),
    objects: (objects, record) => {
      const object = (key: string) => `arn:${partition}:s3:::${envOf(policy, ENV.payloadBucket)}/${key}`;
      return {
        put: (key, body, options) => {
          // A PutObject that carries tags is authorized for s3:PutObjectTagging too.
          record(() => [
            { action: 's3:PutObject', resource: object(key) },
            ...(options?.transient ? [{ action: 's3:PutObjectTagging', resource: object(key) }] : []),
          ]);
          return objects.put(key, body, options);
        },
        get: (key) => {
          record(() => [{ action: 's3:GetObject', resource: object(key) }]);
          return objects.get(key);
        },
      };
    },
    signingKeys: (keys, record) => {
      const read = () => [{ action: 'secretsmanager:GetSecretValue', resource: envOf(policy, ENV.jwtSecretArn) }];
      return {
        current: () => {
          record(read);
          return keys.current();
        },
        find: (kid) => {
          record(read);
          return keys.find(kid);
        },
      };
    },
    pushKeys: (keys, record) => ({
      vapidKeys: () => {
        record(() => [{ action: 'secretsmanager:GetSecretValue', resource: envOf(policy, ENV.vapidSecretArn) }]);
        return keys.vapidKeys();
      },
    }),
    integrations: (settings, record) => ({
      providers: () => {
        record(() => [
          { action: 'secretsmanager:GetSecretValue', resource: envOf(policy, ENV.integrationProvidersSecretArn) },
        ]);
        return settings.providers();
      },
      get apiUrl() {
        // No AWS call, but the stack must have set the variable.
        record(() => {
          envOf(policy, ENV.apiUrl);
          return [];
        });
        return settings.apiUrl;
      },
    }),
    credentialKeys: (keys, record) => {
      const key = () => envOf(policy, ENV.credentialsKeyId);
      return {
        newDataKey: (context) => {
          record(() => [{ action: 'kms:GenerateDataKey', resource: key() }]);
          return keys.newDataKey(context);
        },
        unwrap: (wrapped, context) => {
          record(() => [{ action: 'kms:Decrypt', resource: key() }]);
          return keys.unwrap(wrapped, context);
        },
      };
    },
    sms: (sms, record) => ({
      send: (message) => {
        // A publish to a phone number names no resource but `*`.
        record(() => [{ action: 'sns:Publish', resource: '*' }]);
        return sms.send(message);
      },
    }),
    usagePlan: (plan, record) => {
      const planKeys = () => `/usageplans/${envOf(policy, ENV.usagePlanId)}/keys`;
      // The adapter tags each key it creates with its plan, and touches only keys it created.
      const ownKey = (kind: 'RequestTag' | 'ResourceTag') => ({
        [`aws:${kind}/${USAGE_PLAN_TAG}`]: envOf(policy, ENV.usagePlanId),
      });
      return {
        register: async (key) => {
          const mirrorId = await plan.register(key);
          record(() => [
            { action: 'apigateway:POST', resource: apiGateway('/apikeys'), context: ownKey('RequestTag') },
            { action: 'apigateway:POST', resource: apiGateway(planKeys()) },
          ]);
          return mirrorId;
        },
        setEnabled: (mirrorId, enabled) => {
          record(() => [
            {
              action: 'apigateway:PATCH',
              resource: apiGateway(`/apikeys/${mirrorId}`),
              context: ownKey('ResourceTag'),
            },
          ]);
          return plan.setEnabled(mirrorId, enabled);
        },
        remove: (mirrorId) => {
          record(() => [
            { action: 'apigateway:DELETE', resource: apiGateway(`${planKeys()}/${mirrorId}`) },
            {
              action: 'apigateway:DELETE',
              resource: apiGateway(`/apikeys/${mirrorId}`),
              context: ownKey('ResourceTag'),
            },
          ]);
          return plan.remove(mirrorId);
        },
      };
    },
  });

  /** The first port a function touches marks an invocation; each port value is wrapped once per function. */
  const observe: PortObserver = <P extends PortName>(declaration: FunctionDeclaration, port: P, value: Ports[P]) => {
    const policy = policyOf(declaration.name);
    if (!invoked.has(policy.name)) {
      invoked.add(policy.name);
      add(policy.name, () => runtimeRequests(policy));
    }
    const wrap = wrappers(policy)[port] as Wrap<P> | undefined;
    if (!wrap || typeof value !== 'object' || value === null) return value;
    const byFunction = wrapped.get(value) ?? new Map<string, unknown>();
    wrapped.set(value, byFunction);
    const record = (requests: () => IamRequest[]) => add(policy.name, requests);
    if (!byFunction.has(policy.name)) byFunction.set(policy.name, wrap(value, record));
    return byFunction.get(policy.name) as Ports[P];
  };

  return {
    observe,
    during(name) {
      step = name;
    },
    calls: () => [...recorded.values()],
    problems,
  };
};
