import { createGroupHandler } from '#lib/http/group-handler.ts';
import { signals } from '#lib/routes/signals.ts';

export const handler = createGroupHandler(signals, {});
