import { onFirstUse } from '#lib/loading/on-first-use.ts';
import { createGroupHandler } from '#lib/app/group-handler.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { paged } from '#lib/http/pagination.ts';
import { playbooks } from '#lib/routes/playbooks.ts';

/** Services load on their route's first request, not at cold start (docs/performance.md, "Bundles and cold imports"). */
const library = onFirstUse(() => import('#lib/playbooks/playbook-service.ts'));
const executions = onFirstUse(() => import('#lib/playbooks/execution-service.ts'));
const insights = onFirstUse(() => import('#lib/playbooks/execution-insights.ts'));
const matchPlaybookModule = onFirstUse(() => import('#lib/playbooks/match-playbook.ts'));

export const handler = createGroupHandler(playbooks, {
  createPlaybook: async ({ scope, body }) =>
    created(await (await library()).createPlaybook(scope, body), { message: 'Playbook created' }),
  listPlaybooks: async ({ scope, query }) => {
    const { items, ...paging } = await (await library()).listPlaybooks(scope, query);
    return paged(items, query, paging);
  },
  getPlaybookStats: async ({ scope }) => ok(await (await insights()).playbookStats(scope)),
  getPlaybook: async ({ scope, params, query }) =>
    ok(await (await library()).getPlaybook(scope, { id: params.id, version: query.version })),
  updatePlaybook: async ({ scope, params, body }) =>
    ok(await (await library()).updatePlaybook(scope, { id: params.id, changes: body }), {
      message: 'Playbook updated',
    }),
  publishPlaybook: async ({ scope, params }) =>
    ok(await (await library()).publishPlaybook(scope, params.id), { message: 'Playbook published' }),
  deletePlaybook: async ({ scope, params }) => {
    await (await library()).deletePlaybook(scope, params.id);
    return ok({ id: params.id }, { message: 'Playbook deleted' });
  },
  matchPlaybook: async ({ scope, body }) => {
    const { matchPlaybook } = await matchPlaybookModule();
    const match = await matchPlaybook(scope, body);
    return ok(match, { message: match ? 'Playbook matched' : 'No published playbook fits' });
  },
  executePlaybook: async ({ scope, params, body }) =>
    created(await (await executions()).executePlaybook(scope, { id: params.id, input: body }), {
      message: 'Execution started',
    }),
  listExecutions: async ({ scope, query }) => {
    const { items, ...paging } = await (await executions()).listExecutions(scope, query);
    return paged(items, query, paging);
  },
  getExecution: async ({ scope, params }) => ok(await (await executions()).getExecution(scope, params.executionId)),
  completeStep: async ({ scope, params, body }) =>
    ok(await (await executions()).completeStep(scope, { ...params, note: body.note }), { message: 'Step completed' }),
  skipStep: async ({ scope, params, body }) =>
    ok(await (await executions()).skipStep(scope, { ...params, reason: body.reason }), { message: 'Step skipped' }),
  recordAction: async ({ scope, params, body }) =>
    created(
      await (await executions()).recordAction(scope, {
        executionId: params.executionId,
        description: body.description,
      }),
      { message: 'Action recorded' },
    ),
  cancelExecution: async ({ scope, params, body }) =>
    ok(await (await executions()).cancelExecution(scope, { executionId: params.executionId, reason: body.reason }), {
      message: 'Execution cancelled',
    }),
  getExecutionSuggestions: async ({ scope, params }) =>
    ok(await (await insights()).executionSuggestions(scope, params.executionId)),
  getPatterns: async ({ scope }) => ok(await (await insights()).executionPatterns(scope)),
});
