import { type BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import * as z from 'zod/mini';
import type { Evidence } from './evidence.ts';
import { SUSPECT_KINDS, type EngineNote, type Reasoner } from './reasoner.ts';

/** The most model calls one invocation makes in a row: an AI route of the incidents group reasons all three stages. */
const MODEL_CALLS_PER_INVOCATION = 3;
/** Left of a function's time for its reads and the default engine, which answers for a call that gives up. */
const RESERVED_MS = 3_000;

/**
 * How long each model call may take in a function with this timeout, so that every call the invocation makes
 * in a row can give up and the default engine still answer before Lambda stops the function (a 15 s route
 * function: 4 s a call). The stack sets it as BEDROCK_CALL_TIMEOUT_MS from the function's own timeout.
 */
export const bedrockCallTimeoutMs = (functionTimeoutMs: number): number =>
  Math.floor((functionTimeoutMs - RESERVED_MS) / MODEL_CALLS_PER_INVOCATION);

const claim = z.object({ text: z.string().check(z.minLength(1)), evidenceIds: z.array(z.string()) });
const hypothesisAnswer = z.object({
  hypothesis: claim,
  rootCause: claim,
  plainCause: z.string().check(z.minLength(1)),
  suspect: z.object({
    kind: z.enum(SUSPECT_KINDS),
    service: z.nullable(z.string()),
    evidenceId: z.nullable(z.string()),
  }),
  confidence: z.number().check(z.gte(0), z.lte(1)),
});
const impactAnswer = z.object({
  impactAssessment: claim,
  contributingFactors: z.array(claim),
  plainImpact: z.string().check(z.minLength(1)),
});
const remediationAnswer = z.object({
  remediationOptions: z.array(claim).check(z.minLength(1)),
  plainNextSteps: z.array(z.string()),
});

const INSTRUCTIONS = [
  'You analyse a production incident from the evidence given as JSON and nothing else.',
  'Every claim cites the ids of the evidence items it rests on in evidenceIds; cite only ids that exist.',
  'Where the evidence does not say, write "Unknown:" and what is missing instead of guessing.',
  'Fields named plain* are for non-engineers: no product names, no jargon (deploy, commit, pipeline, signal, upstream, latency, rollback), no ids, hashes or raw timestamps.',
  'Every item is placed at its "at", when it happened; a change counts as a cause only if it happened before incident.startedAt.',
  'If the incident is not resolved, say durations "as of" gatheredAt in the timezone given, never "so far".',
  'A confidence above 0.8 means strong evidence of two or more kinds that agree.',
  'Answer with one JSON object of exactly the requested shape and no other text.',
].join('\n');

/** The first JSON object of the model's text: models sometimes wrap it in prose or a code fence. */
const jsonOf = (text: string): unknown => {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) throw new Error('the model answered no JSON object');
  return JSON.parse(text.slice(start, end + 1));
};

/** Ids the answer cites that the evidence does not hold: a sign of invention, so the answer is refused. */
const unknownIds = (answer: unknown, evidence: Evidence): string[] => {
  const known = new Set(evidence.items.map((item) => item.id));
  const cited = JSON.stringify(answer).matchAll(/"evidenceIds?":\s*(\[[^\]]*\]|"[^"]*")/g);
  return [...cited].flatMap(([, value]) => {
    const parsed = JSON.parse(value ?? '[]') as string | string[];
    return (Array.isArray(parsed) ? parsed : [parsed]).filter((id) => !known.has(id));
  });
};

/**
 * The reasoner on Amazon Bedrock's Converse API: each stage one call with the evidence, its answer held to
 * a zod schema and to the evidence's ids. Any failure (timeout, throttling, access, a malformed or
 * inventive answer) falls back to `fallback`, whose result names the model and why it was not used.
 */
export const createBedrockReasoner = (
  client: Pick<BedrockRuntimeClient, 'send'>,
  modelId: string,
  fallback: Reasoner,
  timeoutMs: number,
): Reasoner => {
  const engine: EngineNote = { name: 'bedrock', modelId, fallbackReason: null };
  const ask = async <S extends z.ZodMiniType>(
    schema: S,
    task: string,
    evidence: Evidence,
    context: object,
  ): Promise<z.output<S>> => {
    const prompt = `${task}\n\nEvidence:\n${JSON.stringify(evidence)}\n\nEarlier stages:\n${JSON.stringify(context)}`;
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // The race ends the wait even where the abort cannot reach (a request still being signed or retried).
    const timedOut = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { name: 'TimeoutError' }));
      }, timeoutMs);
    });
    const response = await Promise.race([
      client.send(
        new ConverseCommand({
          modelId,
          system: [{ text: INSTRUCTIONS }],
          messages: [{ role: 'user', content: [{ text: prompt }] }],
          inferenceConfig: { maxTokens: 2000, temperature: 0 },
        }),
        { abortSignal: abort.signal },
      ),
      timedOut,
    ]).finally(() => clearTimeout(timer));
    const text = response.output?.message?.content?.map((block) => block.text ?? '').join('') ?? '';
    const parsed = z.safeParse(schema, jsonOf(text));
    if (!parsed.success) {
      throw new Error(
        `the model's answer has the wrong shape: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
      );
    }
    const invented = unknownIds(parsed.data, evidence);
    if (invented.length > 0) throw new Error(`the model cited evidence that does not exist: ${invented.join(', ')}`);
    return parsed.data;
  };
  const fallingBack = async <T extends { engine: EngineNote }>(
    attempt: () => Promise<Omit<T, 'engine'>>,
    otherwise: () => Promise<T>,
  ): Promise<T> => {
    try {
      return { ...(await attempt()), engine } as T;
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      const result = await otherwise();
      return { ...result, engine: { name: 'default', modelId, fallbackReason: reason.slice(0, 500) } };
    }
  };
  return {
    hypothesize: (evidence) =>
      fallingBack(
        () =>
          ask(
            hypothesisAnswer,
            'Give {hypothesis, rootCause, plainCause, suspect: {kind: DEPLOY|UPSTREAM|SERVICE|UNKNOWN, service, evidenceId}, confidence}.',
            evidence,
            {},
          ),
        () => fallback.hypothesize(evidence),
      ),
    assessImpact: (evidence, hypothesis) =>
      fallingBack(
        () =>
          ask(impactAnswer, 'Give {impactAssessment, contributingFactors: [claims], plainImpact}.', evidence, {
            hypothesis,
          }),
        () => fallback.assessImpact(evidence, hypothesis),
      ),
    planRemediation: (evidence, hypothesis, impact) =>
      fallingBack(
        () =>
          ask(
            remediationAnswer,
            'Give {remediationOptions: [claims, most urgent first, with concrete commands], plainNextSteps: [strings]}.',
            evidence,
            { hypothesis, impact },
          ),
        () => fallback.planRemediation(evidence, hypothesis, impact),
      ),
  };
};
