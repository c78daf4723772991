import { createGroupHandler } from '#lib/app/group-handler.ts';
import { silentHours } from '#lib/routes/silent-hours.ts';

export const handler = createGroupHandler(silentHours, {});
