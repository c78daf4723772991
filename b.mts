import { buildApp } from './test/infra/template.ts';
import { Template } from 'aws-cdk-lib/assertions';
const app = buildApp();
for (const s of app.stack.api.routeStacks) console.log(s.node.id, Object.keys(Template.fromStack(s).toJSON().Resources).length);
console.log('main', Object.keys(Template.fromStack(app.stack).toJSON().Resources).length);
