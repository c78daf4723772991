import type { Table } from '#lib/store/table.ts';
import { workspaceKey } from '#lib/store/keys.ts';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { setFields } from '#lib/store/set-fields.ts';
import { putIfAbsent, unlessConditionFails } from '#lib/store/conditional-writes.ts';
import { getItem } from '#lib/store/items.ts';

/** The workspace's incident-management settings (spec: IMS configuration). */
export interface ImsConfig {
  alertEmail: string;
  timezone: string;
  slackChannel: string | null;
  slaEnabled: boolean;
  autoEscalate: boolean;
  notifyOnCreate: boolean;
  notifyOnResolve: boolean;
  createdAt: string;
  updatedAt: string;
}

export const imsConfigItemKey = (workspaceId: string) => ({ pk: workspaceKey(workspaceId), sk: 'IMS' });

export const imsConfigToItem = (workspaceId: string, config: ImsConfig): Record<string, unknown> => ({
  ...imsConfigItemKey(workspaceId),
  type: 'IMS_CONFIG',
  workspaceId,
  ...config,
});

export const imsConfigFromItem = (item: Record<string, unknown>, workspaceId: string): ImsConfig => {
  const { pk: _pk, sk: _sk, type: _type, workspaceId: itemWorkspaceId, ...config } = item;
  if (itemWorkspaceId !== workspaceId) throw new Error('IMS config item read outside its workspace');
  return { ...config, slackChannel: config.slackChannel ?? null } as ImsConfig;
};

/** Writes the first configuration; false when the workspace has one already (setup is called once). */
export const createImsConfig = async (table: Table, workspaceId: string, config: ImsConfig): Promise<boolean> => {
  return putIfAbsent(table, imsConfigToItem(workspaceId, config));
};

export const getImsConfig = async (table: Table, workspaceId: string): Promise<ImsConfig | undefined> => {
  const Item = await getItem(table, imsConfigItemKey(workspaceId));
  return Item && imsConfigFromItem(Item, workspaceId);
};

/** SETs the given fields; undefined when the workspace has no configuration yet. */
export const updateImsConfig = async (
  table: Table,
  workspaceId: string,
  fields: Partial<Omit<ImsConfig, 'createdAt'>>,
): Promise<ImsConfig | undefined> => {
  return unlessConditionFails(async () => {
    const { Attributes } = await table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: imsConfigItemKey(workspaceId),
        ...setFields(fields),
        ConditionExpression: 'attribute_exists(sk)',
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes && imsConfigFromItem(Attributes, workspaceId);
  });
};
