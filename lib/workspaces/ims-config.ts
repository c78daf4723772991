import { ConflictError, NotFoundError } from '#lib/contract/errors.ts';
import type { ImsConfig } from './ims-config-repository.ts';
import { imsConfigRepository } from './ims-config-repository.ts';
import type { ImsSetupInput, ImsUpdateInput } from './schemas.ts';
import type { Scope } from '#lib/identity/scope.ts';

const notSetUp = () => new NotFoundError('IMS is not configured yet: POST /api/v1/ims/setup first');

export const setupIms = async (
  { ports: { table, clock }, workspaceId }: Scope,
  input: ImsSetupInput,
): Promise<ImsConfig> => {
  const now = clock.now().toISOString();
  const config: ImsConfig = {
    ...input,
    slackChannel: input.slackChannel ?? null,
    ...(input.autoEscalate && { autoEscalateSince: now }),
    createdAt: now,
    updatedAt: now,
  };
  if (!(await imsConfigRepository(table, workspaceId).createImsConfig(config))) {
    throw new ConflictError('IMS is configured already: change it with PUT /api/v1/ims/config');
  }
  return config;
};

export const readImsConfig = async ({ ports: { table }, workspaceId }: Scope): Promise<ImsConfig> => {
  const config = await imsConfigRepository(table, workspaceId).getImsConfig();
  if (!config) throw notSetUp();
  return config;
};

export const changeImsConfig = async (
  { ports: { table, clock }, workspaceId }: Scope,
  input: ImsUpdateInput,
): Promise<ImsConfig> => {
  const configs = imsConfigRepository(table, workspaceId);
  const now = clock.now().toISOString();
  // Turning escalation on starts its clock now, for the incidents open already too.
  const turnedOn = input.autoEscalate === true && (await configs.getImsConfig())?.autoEscalate === false;
  const config = await configs.updateImsConfig({
    ...input,
    ...(turnedOn && { autoEscalateSince: now }),
    updatedAt: now,
  });
  if (!config) throw notSetUp();
  return config;
};
