import { Template } from 'aws-cdk-lib/assertions';
import type { CfnElement } from 'aws-cdk-lib';
import { createServiceApp, type ServiceApp } from '#infra/service-app.ts';
import type { ServiceFunction } from '#infra/constructs/service-function.ts';

/** The context a deploy must give, with test values. */
export const REQUIRED_CONTEXT = { mailFrom: 'no-reply@example.com' };

/**
 * No bundling (functions get placeholder code), and no creation stack trace recorded in each resource's
 * metadata: the template is the same, and capturing a trace through vitest's source maps cost about a tenth of
 * every synth.
 */
const TEST_SYNTH_CONTEXT = { 'aws:cdk:bundling-stacks': [], 'aws:cdk:disable-creation-stack-traces': true };

/** The app as `cdk synth` builds it, minus bundling and, unless asked, checks. */
export const buildApp = (context: Record<string, unknown> = {}, checks = false): ServiceApp =>
  createServiceApp({ context: { ...TEST_SYNTH_CONTEXT, ...REQUIRED_CONTEXT, ...context }, checks });

export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, unknown>;
}

export const actionsOf = (statement: Statement): string[] =>
  Array.isArray(statement.Action) ? statement.Action : [statement.Action];

type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;

/** Reading a service stack's template by the constructs that made it. */
export const inspect = (app: ServiceApp) => {
  const { stack } = app;
  const template = Template.fromStack(stack);
  const resources = template.toJSON().Resources as Resources;
  const logicalId = (element: CfnElement): string => stack.resolve(stack.getLogicalId(element)) as string;

  const functionResource = (fn: ServiceFunction) => {
    const resource = resources[logicalId(fn.lambda.node.defaultChild as CfnElement)];
    if (!resource) throw new Error(`no template resource for ${fn.node.path}`);
    return resource;
  };

  /** Every statement of every policy attached to the function's role. */
  const statementsOf = (fn: ServiceFunction): Statement[] => {
    const roleId = logicalId(fn.lambda.role!.node.defaultChild as CfnElement);
    return Object.values(resources)
      .filter((resource) => resource.Type === 'AWS::IAM::Policy')
      .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(`"${roleId}"`))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
  };

  const actionsOfFunction = (fn: ServiceFunction): string[] => statementsOf(fn).flatMap(actionsOf);

  return { stack, template, resources, logicalId, functionResource, statementsOf, actionsOfFunction };
};

const views = new Map<string, ReturnType<typeof inspect>>();

/**
 * The app synthesized with `context` once per test worker (the slow project shares modules between its files),
 * so the many files reading the same app pay for it once: only read it.
 */
export const inspectApp = (context: Record<string, unknown> = {}): ReturnType<typeof inspect> => {
  const key = JSON.stringify(context);
  const view = views.get(key) ?? inspect(buildApp(context));
  views.set(key, view);
  return view;
};

/** The app with no context beyond what a deploy must give. */
export const inspectDefaultApp = (): ReturnType<typeof inspect> => inspectApp();

/** A production deploy as docs/deploying.md gives it: the files reading prod's template share this one synth. */
export const PROD_CONTEXT = { stage: 'prod', alarmEmail: 'ops@example.com' };
