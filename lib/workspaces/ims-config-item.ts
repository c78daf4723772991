import { workspaceKey } from '#lib/store/keys.ts';

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
