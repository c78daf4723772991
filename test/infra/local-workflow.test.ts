import { beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionEndedEvent, StageEvent } from '#functions/analysis-worker/index.ts';
import { ANALYSIS_STAGES } from '#lib/analysis/analysis.ts';
import { createLocalWorkflow } from '#infra/local/workflow.ts';

interface State {
  analysisId: string;
  trail: string[];
}

/** A stand-in worker: appends its stage to the state, and fails at `failAt` if the state asks. */
const recordingHandler = () => {
  const calls: StageEvent[] = [];
  const stageHandler = async (payload: StageEvent) => {
    calls.push(structuredClone(payload));
    const state = payload.input as unknown as State & { failAt?: string };
    if (state.failAt === payload.stage) throw new Error(`${payload.stage} broke`);
    return { ...state, trail: [...state.trail, payload.stage] };
  };
  const ended: ExecutionEndedEvent[] = [];
  const endedHandler = async (event: ExecutionEndedEvent) => void ended.push(event);
  return { calls, stageHandler, ended, endedHandler };
};

describe('local analysis workflow', () => {
  beforeAll(() => {
    process.env.LOG_LEVEL = 'silent';
  });

  it('answers start at once and runs the four stages in order, passing the state along', async () => {
    const { calls, stageHandler, ended, endedHandler } = recordingHandler();
    const workflow = createLocalWorkflow({ stageHandler, endedHandler });

    const { executionId } = await workflow.start('analysis', { analysisId: 'a-1', trail: [] }, 'a-1');
    expect(executionId).toMatch(/^arn:aws:states:.+:execution:analysis:a-1$/);
    expect(calls).toEqual([]);

    await workflow.settled();
    expect(calls.map((call) => call.stage)).toEqual([...ANALYSIS_STAGES]);
    calls.forEach((call, index) => {
      expect(call.input).toEqual({ analysisId: 'a-1', trail: ANALYSIS_STAGES.slice(0, index) });
    });
    expect(ended).toEqual([]);
  });

  it('retries a failing stage twice, then marks the analysis failed with the state it failed on', async () => {
    const { calls, stageHandler, ended, endedHandler } = recordingHandler();
    const workflow = createLocalWorkflow({ stageHandler, endedHandler });

    await workflow.start('analysis', { analysisId: 'a-2', trail: [], failAt: 'impact-assessment' }, 'a-2');
    await workflow.settled();

    expect(calls.map((call) => call.stage)).toEqual([
      'context-gathering',
      'hypothesis-generation',
      'impact-assessment',
      'impact-assessment',
      'impact-assessment',
      'failed',
    ]);
    expect(calls.at(-1)?.input).toMatchObject({
      analysisId: 'a-2',
      trail: ['context-gathering', 'hypothesis-generation'],
      error: { Cause: 'impact-assessment broke' },
    });
    // The rule on unfinished executions sees the failed execution too; recording it again changes nothing.
    expect(ended).toEqual([
      {
        'detail-type': 'Step Functions Execution Status Change',
        detail: expect.objectContaining({
          status: 'FAILED',
          input: JSON.stringify({ analysisId: 'a-2', trail: [], failAt: 'impact-assessment' }),
        }),
      },
    ]);
  });

  it('runs executions side by side and treats a repeated name as StartExecution does', async () => {
    const { calls, stageHandler, endedHandler } = recordingHandler();
    const workflow = createLocalWorkflow({ stageHandler, endedHandler });

    const first = await workflow.start('analysis', { analysisId: 'a-3', trail: [] }, 'a-3');
    await workflow.start('analysis', { analysisId: 'a-4', trail: [] }, 'a-4');
    expect(await workflow.start('analysis', { analysisId: 'a-3', trail: [] }, 'a-3')).toEqual(first);
    await expect(workflow.start('analysis', { analysisId: 'other', trail: [] }, 'a-3')).rejects.toThrow(
      /ExecutionAlreadyExists/,
    );
    await workflow.settled();

    expect(calls.filter((call) => call.stage === 'remediation-planning').map((call) => call.input.analysisId)).toEqual(
      expect.arrayContaining(['a-3', 'a-4']),
    );
    expect(calls).toHaveLength(2 * ANALYSIS_STAGES.length);
  });

  it("fails a task whose output is over Step Functions' 256 KiB, as the service does", async () => {
    const { calls, endedHandler } = recordingHandler();
    const stageHandler = async (payload: StageEvent) => {
      calls.push(payload);
      return { ...payload.input, evidence: 'x'.repeat(300_000) };
    };
    const workflow = createLocalWorkflow({ stageHandler, endedHandler });
    await workflow.start('analysis', { analysisId: 'a-5', trail: [] }, 'a-5');
    await workflow.settled();
    // MarkFailed's output is over the limit too here, so it is tried three times as well.
    expect(calls.map((call) => call.stage)).toEqual([
      ...Array(3).fill('context-gathering'),
      ...Array(3).fill('failed'),
    ]);
  });
});
