import { describe, expect, it } from 'vitest';
import { functionPolicies } from '../support/iam/function-policies.ts';
import { evaluate } from '../support/iam/policy-evaluator.ts';
import { TEST_DEPLOYMENT } from '../support/iam/template-resolver.ts';
import { actionsOf, buildApp, inspectApp } from './template.ts';

const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';

/** Every function that may call Bedrock or is told a model, with its statement's resources. */
const bedrockFunctions = (context: Record<string, unknown>) => {
  const view = inspectApp(context);
  const functions = [...view.stack.groupFunctions, ['analysis-worker', view.stack.analysisWorker] as const];
  return functions.flatMap(([name, fn]) => {
    const statements = view
      .statementsOf(fn)
      .filter((statement) => actionsOf(statement).some((action) => action.startsWith('bedrock:')));
    const env = view.functionResource(fn).Properties.Environment?.Variables ?? {};
    if (statements.length === 0 && !('BEDROCK_MODEL_ID' in env)) return [];
    return [
      {
        name,
        env: env.BEDROCK_MODEL_ID,
        actions: statements.flatMap(actionsOf),
        resources: JSON.stringify(statements.map((s) => s.Resource)),
      },
    ];
  });
};

describe('Bedrock model context', () => {
  it('grants no function Bedrock and names no model by default', () => {
    expect(bedrockFunctions({})).toEqual([]);
  });

  it('with bedrockModelId, lets the analysis worker and the incidents AI routes alone converse with that model', () => {
    const granted = bedrockFunctions({ bedrockModelId: MODEL });
    expect(granted.map(({ name }) => name).sort()).toEqual(['analysis-worker', 'incidents']);
    for (const fn of granted) {
      expect(fn).toMatchObject({ env: MODEL, actions: ['bedrock:InvokeModel'] });
      expect(fn.resources).toContain(`foundation-model/${MODEL}`);
      expect(fn.resources).not.toContain('*');
    }
  });

  // The grant named the profile in the stack's region only: Bedrock also authorizes the model in the region
  // the profile routes each call to, so every call through the profile was denied.
  it('through a cross-region inference profile, allows the model in any region the profile routes to, and only through it', () => {
    const { region, account, partition } = TEST_DEPLOYMENT;
    const profile = `us.${MODEL}`;
    const profileArn = `arn:${partition}:bedrock:${region}:${account}:inference-profile/${profile}`;
    const policies = functionPolicies(inspectApp({ bedrockModelId: profile }));
    for (const name of ['incidents', 'analysis-worker']) {
      const statements = policies.get(name)?.statements ?? [];
      const invoke = (resource: string, context?: Record<string, string>) =>
        evaluate(statements, { action: 'bedrock:InvokeModel', resource, ...(context && { context }) });
      expect(invoke(profileArn), name).toBe('allowed');
      for (const routedTo of ['us-east-1', 'us-east-2', 'us-west-2']) {
        const model = `arn:${partition}:bedrock:${routedTo}::foundation-model/${MODEL}`;
        expect(invoke(model, { 'bedrock:InferenceProfileArn': profileArn }), `${name} ${routedTo}`).toBe('allowed');
        expect(invoke(model), `${name} ${routedTo} without the profile`).toBe('implicitDeny');
      }
      expect(
        invoke(`arn:${partition}:bedrock:us-west-2::foundation-model/anthropic.claude-opus-4-v1:0`, {
          'bedrock:InferenceProfileArn': profileArn,
        }),
      ).toBe('implicitDeny');
    }
  });

  it('fails the synth on a value that is not a model id', () => {
    expect(() => buildApp({ bedrockModelId: 'not a model' })).toThrow(/bedrockModelId/);
  });
});
