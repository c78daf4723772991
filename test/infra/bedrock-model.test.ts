import { describe, expect, it } from 'vitest';
import { actionsOf, buildApp, inspect } from './template.ts';

const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';

/** Every function that may call Bedrock or is told a model, with its statement's resources. */
const bedrockFunctions = (context: Record<string, unknown>) => {
  const app = buildApp(context);
  const view = inspect(app);
  const functions = [...app.stack.groupFunctions, ['analysis-worker', app.stack.analysisWorker] as const];
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
      expect(fn.resources).toContain(`inference-profile/${MODEL}`);
      expect(fn.resources).not.toContain('*');
    }
  });

  it('fails the synth on a value that is not a model id', () => {
    expect(() => buildApp({ bedrockModelId: 'not a model' })).toThrow(/bedrockModelId/);
  });
});
