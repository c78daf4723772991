import { describe, expect, it } from 'vitest';
import { Template } from 'aws-cdk-lib/assertions';
import { inspectApp } from './template.ts';

/**
 * In API Gateway a resource keeps a request only for a method it declares; another method, or a path with
 * no resource, goes to a greedy `{proxy+}` where one exists, and is a 403 "Missing Authentication Token"
 * where none does. These check that the template leaves no request to that 403.
 */
describe('a method or path outside the route table, in AWS', () => {
  const view = inspectApp();
  const resources = view.template.toJSON().Resources as Record<string, { Type: string; Properties: any }>;
  const routeMissId = view.logicalId(view.stack.routeMiss.lambda.node.defaultChild as never);
  const rootProxies = Object.entries(resources).filter(
    ([, resource]) =>
      resource.Type === 'AWS::ApiGateway::Resource' &&
      resource.Properties.PathPart === '{proxy+}' &&
      JSON.stringify(resource.Properties.ParentId).includes('RootResourceId'),
  );

  it('goes to the route-miss function through a public ANY on a greedy {proxy+} at the root', () => {
    expect(rootProxies).toHaveLength(1);
    const [proxyId] = rootProxies[0] ?? [];
    const methods = Object.values(resources).filter(
      (resource) => resource.Type === 'AWS::ApiGateway::Method' && resource.Properties.ResourceId?.Ref === proxyId,
    );
    expect(methods.map((method) => method.Properties.HttpMethod)).toEqual(['ANY']);
    const [any] = methods;
    expect(any?.Properties).toMatchObject({ AuthorizationType: 'NONE', Integration: { Type: 'AWS_PROXY' } });
    expect(JSON.stringify(any?.Properties.Integration.Uri)).toContain(routeMissId);
  });

  it('is the only catch-all: every route keeps its own method, and a route stack holds an ANY only to route-miss', () => {
    const catchAlls = Object.values(resources).filter(
      (resource) => resource.Type === 'AWS::ApiGateway::Resource' && resource.Properties.PathPart.endsWith('+}'),
    );
    expect(catchAlls).toHaveLength(1);
    // Those ANYs sit on literal paths beside a parameter (test/infra/first-deploy.test.ts): public, to route-miss.
    for (const stack of view.stack.api.routeStacks) {
      const methods = Object.values(Template.fromStack(stack).findResources('AWS::ApiGateway::Method'));
      for (const any of methods.filter((method) => method.Properties.HttpMethod === 'ANY')) {
        expect(any.Properties).toMatchObject({ AuthorizationType: 'NONE', Integration: { Type: 'AWS_PROXY' } });
        expect(JSON.stringify(any.Properties.Integration.Uri)).toContain('RouteMiss');
      }
    }
  });

  it('may be invoked by the API, and needs nothing but the allowed origins', () => {
    view.template.hasResourceProperties('AWS::Lambda::Permission', {
      FunctionName: { 'Fn::GetAtt': [routeMissId, 'Arn'] },
      Principal: 'apigateway.amazonaws.com',
    });
    const env = view.functionResource(view.stack.routeMiss).Properties.Environment.Variables;
    expect(Object.keys(env).sort()).toEqual(['ALLOWED_ORIGINS', 'NODE_OPTIONS']);
    const beyondLogsAndTraces = view
      .actionsOfFunction(view.stack.routeMiss)
      .filter((action) => !action.startsWith('logs:') && !action.startsWith('xray:'));
    expect(beyondLogsAndTraces).toEqual([]);
  });
});
