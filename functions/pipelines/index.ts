import { createGroupHandler } from '#lib/http/group-handler.ts';
import { pipelines } from '#lib/routes/pipelines.ts';

export const handler = createGroupHandler(pipelines, {});
