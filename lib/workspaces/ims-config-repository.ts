import type { Table } from '#lib/store/table.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { setFields } from '#lib/store/set-fields.ts';
import { putIfAbsent, updateIfPresent } from '#lib/store/conditional-writes.ts';
import { findItem } from '#lib/store/items.ts';

/** The workspace's incident-management settings (spec: IMS configuration). */
export interface ImsConfig {
  alertEmail: string;
  timezone: string;
  slackChannel: string | null;
  slaEnabled: boolean;
  autoEscalate: boolean;
  /** When `autoEscalate` was last turned on: escalation counts from then (lib/incidents/escalation.ts). */
  autoEscalateSince?: string;
  notifyOnCreate: boolean;
  notifyOnResolve: boolean;
  createdAt: string;
  updatedAt: string;
}

const imsConfigItemKey = (workspaceId: string) => ({ pk: workspaceKey(workspaceId), sk: 'IMS' });

const imsConfigToItem = (workspaceId: string, config: ImsConfig): Record<string, unknown> => ({
  ...imsConfigItemKey(workspaceId),
  type: 'IMS_CONFIG',
  workspaceId,
  ...config,
});

const imsConfigFromItem = (item: Record<string, unknown>, workspaceId: string): ImsConfig => {
  const { pk: _pk, sk: _sk, type: _type, workspaceId: itemWorkspaceId, ...config } = item;
  if (itemWorkspaceId !== workspaceId) throw new Error('IMS config item read outside its workspace');
  return { ...config, slackChannel: config.slackChannel ?? null } as ImsConfig;
};

/** The operations of this module bound to one workspace: every key they build carries its id. */
export const imsConfigRepository = (table: Table, workspaceId: string) => {
  /** Writes the first configuration; false when the workspace has one already (setup is called once). */
  const createImsConfig = async (config: ImsConfig): Promise<boolean> => {
    return putIfAbsent(table, imsConfigToItem(workspaceId, config));
  };

  const getImsConfig = async (): Promise<ImsConfig | undefined> => {
    return findItem(table, imsConfigItemKey(workspaceId), (item) => imsConfigFromItem(item, workspaceId));
  };

  /** SETs the given fields; undefined when the workspace has no configuration yet. */
  const updateImsConfig = async (fields: Partial<Omit<ImsConfig, 'createdAt'>>): Promise<ImsConfig | undefined> => {
    const item = await updateIfPresent(table, imsConfigItemKey(workspaceId), {
      ...setFields(fields),
    });
    return item && imsConfigFromItem(item, workspaceId);
  };
  return { createImsConfig, getImsConfig, updateImsConfig };
};
