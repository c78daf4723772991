import { assertOfWorkspace, storedFields } from '#lib/store/item-values.ts';
import { putItem } from '#lib/store/conditional-writes.ts';
import { findItem } from '#lib/store/items.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import type { Table } from '#lib/store/table.ts';
import type { SealedSecret } from './token-seal.ts';

/** The workspace's code host A connection for the code engine, token sealed (docs/data-model.md 5.4). */
export interface CodeHostSettings {
  baseUrl: string;
  sealedToken: SealedSecret;
  /** The token's last four characters, so an ADMIN can tell which one is set. */
  tokenHint: string;
  updatedAt: string;
  updatedBy: string;
}

const settingsKey = (workspaceId: string) => ({ pk: workspaceKey(workspaceId), sk: 'CODE_ENGINE' });

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const codeHostSettingsRepository = (table: Table, workspaceId: string) => {
  const findSettings = (): Promise<CodeHostSettings | undefined> =>
    findItem(table, settingsKey(workspaceId), (item) => {
      assertOfWorkspace(item, workspaceId, 'code engine settings');
      return storedFields<CodeHostSettings>()(item, ['baseUrl', 'sealedToken', 'tokenHint', 'updatedAt', 'updatedBy']);
    });

  /** The whole setting replaced at once: a token and its base URL always belong together. */
  const putSettings = async (settings: CodeHostSettings): Promise<void> => {
    await putItem(table, { ...settingsKey(workspaceId), type: 'CODE_ENGINE_SETTINGS', workspaceId, ...settings });
  };
  return { findSettings, putSettings };
};
