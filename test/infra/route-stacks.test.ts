import { describe, expect, it } from 'vitest';
import { type CfnElement, CfnResource, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { ROUTE_GROUPS, allRoutes, type RouteEntry } from '#lib/routes/index.ts';
import { toGatewayPath } from '#lib/http/route-matcher.ts';
import { ServiceApi } from '#infra/constructs/rest-api.ts';
import { assignSubtrees, COMMITTED_ROUTE_STACKS, unmappedSubtrees } from '#infra/constructs/route-stack-map.ts';

/** The API alone, in a stack of its own, with stand-in functions: what a release's route table makes of it. */
const synthesizeApi = (routes: readonly RouteEntry[]) => {
  const stack = new Stack(undefined, 'Api');
  const fn = (id: string) =>
    new LambdaFunction(stack, id, {
      code: Code.fromInline('export {}'),
      handler: 'index.handler',
      runtime: Runtime.NODEJS_22_X,
    });
  const groups = new Set(routes.map(({ group }) => group));
  const api = new ServiceApi(stack, 'Http', {
    name: 'Api',
    routes,
    groupFunctions: new Map([...groups].map((group) => [group, fn(group)])),
    stageName: 'dev',
    throttle: { rateLimit: 50, burstLimit: 100 },
    perKeyLimit: 100,
    binaryMediaTypes: ['*/*'],
    logRetention: RetentionDays.ONE_WEEK,
    removalPolicy: RemovalPolicy.DESTROY,
    logging: 'off',
    allowedOrigins: ['*'],
    apiKeyAuthorizer: fn('Authorizer'),
    routeMiss: fn('RouteMiss'),
    tracing: true,
  });
  /** Every API Gateway resource and method of the routes stacks, by its node path below its stack: its stack and logical id. */
  const placed = new Map<string, string>();
  for (const routesStack of api.routeStacks) {
    for (const construct of routesStack.node.findAll()) {
      if (!(construct instanceof CfnResource) || !construct.cfnResourceType.startsWith('AWS::ApiGateway::')) continue;
      const owner = Stack.of(construct);
      const logicalId = owner.resolve(owner.getLogicalId(construct as CfnElement)) as string;
      const key = `${construct.cfnResourceType} ${identify(construct)}`;
      placed.set(key, `${owner.node.id}/${logicalId}`);
    }
  }
  return placed;
};

/** A resource by its path, a method by its verb and its resource's path. */
const identify = (construct: CfnResource): string => {
  const owner = construct.node.scope as { path?: string; httpMethod?: string; resource?: { path: string } };
  return owner.httpMethod ? `${owner.httpMethod} ${owner.resource?.path}` : String(owner.path);
};

const route = (group: string, method: 'GET' | 'POST', path: string): RouteEntry => ({
  group,
  key: `${method} ${path}`,
  route: { method, path, summary: 'added by a later release', auth: 'bearer', access: 'read' },
});

describe('routes stacks', () => {
  it('the committed map lists every subtree of the route table, so no release repacks them', () => {
    const paths = allRoutes().map(({ route: { path } }) => toGatewayPath(path));
    const assigned = assignSubtrees(paths, true, COMMITTED_ROUTE_STACKS);
    expect(unmappedSubtrees(assigned, COMMITTED_ROUTE_STACKS), 'add these to infra/route-stacks.json').toEqual([]);
  });

  it('a new subtree and new routes in an existing one leave every earlier resource in its stack, with its logical id', () => {
    const before = synthesizeApi(allRoutes());
    const [firstGroup] = ROUTE_GROUPS;
    const after = synthesizeApi([
      route('tickets', 'GET', '/api/v1/a-new-capability'),
      route('tickets', 'POST', '/api/v1/a-new-capability/:id/close'),
      ...allRoutes(),
      route('tickets', 'GET', '/api/v1/incident-ticket/:id/a-new-view'),
      route('tickets', 'POST', '/api/v1/signals/a-new-literal'),
      route(firstGroup?.name ?? 'tickets', 'GET', '/api/v1/zz-another-capability'),
    ]);
    const moved = [...before].filter(([key, place]) => after.get(key) !== place);
    expect(moved).toEqual([]);
    expect(after.size).toBeGreaterThan(before.size);
  });
});
