import { createGroupHandler } from '#lib/http/group-handler.ts';
import { serviceMap } from '#lib/routes/service-map.ts';

export const handler = createGroupHandler(serviceMap, {});
