import { createGroupHandler } from '#lib/app/group-handler.ts';
import { serviceMap } from '#lib/routes/service-map.ts';

export const handler = createGroupHandler(serviceMap, {});
