import { createGroupHandler } from '#lib/app/group-handler.ts';
import { created, ok } from '#lib/http/envelope.ts';
import { paged } from '#lib/http/pagination.ts';
import {
  cancelExecution,
  completeStep,
  executePlaybook,
  getExecution,
  listExecutions,
  recordAction,
  skipStep,
} from '#lib/playbooks/execution-service.ts';
import { matchPlaybook } from '#lib/playbooks/match-playbook.ts';
import {
  createPlaybook,
  deletePlaybook,
  getPlaybook,
  listPlaybooks,
  publishPlaybook,
  updatePlaybook,
} from '#lib/playbooks/playbook-service.ts';
import { playbooks } from '#lib/routes/playbooks.ts';

/** Stats, patterns and suggestions are read now and then: their module loads on first use. */
const insights = () => import('#lib/playbooks/execution-insights.ts');

export const handler = createGroupHandler(playbooks, {
  createPlaybook: async ({ scope, body }) =>
    created(await createPlaybook(scope, body), { message: 'Playbook created' }),
  listPlaybooks: async ({ scope, query }) => {
    const { items, ...paging } = await listPlaybooks(scope, query);
    return paged(items, query, paging);
  },
  getPlaybookStats: async ({ scope }) => ok(await (await insights()).playbookStats(scope)),
  getPlaybook: async ({ scope, params, query }) =>
    ok(await getPlaybook(scope, { id: params.id, version: query.version })),
  updatePlaybook: async ({ scope, params, body }) =>
    ok(await updatePlaybook(scope, { id: params.id, changes: body }), { message: 'Playbook updated' }),
  publishPlaybook: async ({ scope, params }) =>
    ok(await publishPlaybook(scope, params.id), { message: 'Playbook published' }),
  deletePlaybook: async ({ scope, params }) => {
    await deletePlaybook(scope, params.id);
    return ok({ id: params.id }, { message: 'Playbook deleted' });
  },
  matchPlaybook: async ({ scope, body }) => {
    const match = await matchPlaybook(scope, body);
    return ok(match, { message: match ? 'Playbook matched' : 'No published playbook fits' });
  },
  executePlaybook: async ({ scope, params, body }) =>
    created(await executePlaybook(scope, { id: params.id, input: body }), { message: 'Execution started' }),
  listExecutions: async ({ scope, query }) => {
    const { items, ...paging } = await listExecutions(scope, query);
    return paged(items, query, paging);
  },
  getExecution: async ({ scope, params }) => ok(await getExecution(scope, params.executionId)),
  completeStep: async ({ scope, params, body }) =>
    ok(await completeStep(scope, { ...params, note: body.note }), { message: 'Step completed' }),
  skipStep: async ({ scope, params, body }) =>
    ok(await skipStep(scope, { ...params, reason: body.reason }), { message: 'Step skipped' }),
  recordAction: async ({ scope, params, body }) =>
    created(await recordAction(scope, { executionId: params.executionId, description: body.description }), {
      message: 'Action recorded',
    }),
  cancelExecution: async ({ scope, params, body }) =>
    ok(await cancelExecution(scope, { executionId: params.executionId, reason: body.reason }), {
      message: 'Execution cancelled',
    }),
  getExecutionSuggestions: async ({ scope, params }) =>
    ok(await (await insights()).executionSuggestions(scope, params.executionId)),
  getPatterns: async ({ scope }) => ok(await (await insights()).executionPatterns(scope)),
});
