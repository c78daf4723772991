import { ConflictError, NotFoundError } from '#lib/contract/errors.ts';
import type { ImsConfig } from './ims-config-repository.ts';
import { imsConfigRepository } from './ims-config-repository.ts';
import type { ImsSetupInput, ImsUpdateInput } from './schemas.ts';
import type { Scope } from '#lib/identity/scope.ts';
import { askToConfirm, outsideRecipients } from './outside-recipients.ts';

const notSetUp = () => new NotFoundError('IMS is not configured yet: POST /api/v1/ims/setup first');

/** An alert address outside the members (only ADMINs set it) confirms before anything is sent to it. */
const outsideAlertAddress = (scope: Scope, alertEmail: string | undefined) =>
  outsideRecipients(scope, alertEmail ? [{ field: 'alertEmail', name: alertEmail }] : []);

const ALERT_ADDRESS = 'the alert address of the workspace';

/** `baseUrl`: the API's URL as the caller reached it, for the confirmation link of an outside alert address. */
export const setupIms = async (scope: Scope, input: ImsSetupInput, baseUrl: string): Promise<ImsConfig> => {
  const {
    ports: { table, clock },
    workspaceId,
  } = scope;
  const outside = await outsideAlertAddress(scope, input.alertEmail);
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
  await askToConfirm(scope, outside, { namedAs: ALERT_ADDRESS, baseUrl });
  return config;
};

export const readImsConfig = async ({ ports: { table }, workspaceId }: Scope): Promise<ImsConfig> => {
  const config = await imsConfigRepository(table, workspaceId).getImsConfig();
  if (!config) throw notSetUp();
  return config;
};

export const changeImsConfig = async (scope: Scope, input: ImsUpdateInput, baseUrl: string): Promise<ImsConfig> => {
  const {
    ports: { table, clock },
    workspaceId,
  } = scope;
  const outside = await outsideAlertAddress(scope, input.alertEmail);
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
  await askToConfirm(scope, outside, { namedAs: ALERT_ADDRESS, baseUrl });
  return config;
};
