import type { Table } from '#lib/store/table.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { putItem } from '#lib/store/conditional-writes.ts';

/**
 * A webhook this service created at a code host (`{W}#INTEGRATION` / `HOOK#<sender>#<target>`): what to
 * remove there and which ingestion key it carries, should the hook be taken down.
 */
export interface CodeHostHook {
  sender: 'codehost-a' | 'codehost-b';
  /** `owner/repo` or the project's id or path, as registered. */
  target: string;
  providerHookId: string;
  events: string[];
  apiKeyId: string;
  registeredBy: string;
  registeredAt: string;
}

export const codeHostHookRepository = (table: Table, workspaceId: string) => {
  const putHook = async (hook: CodeHostHook): Promise<void> => {
    await putItem(table, {
      pk: workspaceKey(workspaceId, 'INTEGRATION'),
      sk: `HOOK#${hook.sender}#${encodeURIComponent(hook.target.trim().toLowerCase())}`,
      type: 'WEBHOOK_HOOK',
      workspaceId,
      ...hook,
    });
  };
  return { putHook };
};
