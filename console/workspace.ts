import type * as z from 'zod/mini';
import type { workspaceSummaryData } from '#lib/workspaces/schemas.ts';
import { get } from './api.ts';

export type Workspace = z.output<typeof workspaceSummaryData>;

/**
 * The signed-in person's workspace (`GET /business/workspace`): its name, and the zone every time the console
 * shows is said in, as the mails and pages the service writes say them (docs/console.md, "Times"). The console
 * renders its pages once it is known, so no page shows a time on this device's clock first.
 */
let zone = 'UTC';

/** The workspace's name is remembered (no credential, nothing else) so the sign-in page can name it. */
const NAME_KEY = 'incident-console.workspace';

export const loadWorkspace = async (): Promise<Workspace> => {
  const { data } = await get<Workspace>('/business/workspace');
  zone = data.timezone;
  localStorage.setItem(NAME_KEY, data.businessName);
  return data;
};

/** The zone the console says times in. */
export const workspaceZone = (): string => zone;

/** The workspace this browser last signed in to, for the sign-in page. */
export const rememberedWorkspaceName = (): string | null => localStorage.getItem(NAME_KEY);
