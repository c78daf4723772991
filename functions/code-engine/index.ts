import { createGroupHandler } from '#lib/app/group-handler.ts';
import { codeEngine } from '#lib/routes/code-engine.ts';

export const handler = createGroupHandler(codeEngine, {});
