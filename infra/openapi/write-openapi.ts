import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serviceOpenApiDocument } from './service-openapi.ts';

const target = fileURLToPath(new URL('../../docs/openapi.json', import.meta.url));
writeFileSync(target, `${JSON.stringify(serviceOpenApiDocument(), null, 2)}\n`);
console.log(`wrote ${target}`);
