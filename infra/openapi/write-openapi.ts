import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '#lib/http/openapi.ts';
import { ROUTE_GROUPS } from '#lib/routes/index.ts';

const target = fileURLToPath(new URL('../../docs/openapi.json', import.meta.url));
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(ROUTE_GROUPS), null, 2)}\n`);
console.log(`wrote ${target}`);
