import { CfnResource, Duration, NestedStack, type RemovalPolicy } from 'aws-cdk-lib';
import { CORS_ALLOW_HEADERS, CORS_MAX_AGE_SECONDS } from '#lib/http/cors.ts';
import {
  AccessLogFormat,
  ApiKeySourceType,
  RequestAuthorizer,
  AuthorizationType,
  type CfnMethod,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  Method,
  MethodLoggingLevel,
  Resource,
  RestApi,
  type StageOptions,
  type IResource,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ApiLogging } from '../settings.ts';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { takesApiKeys } from '#lib/http/route.ts';
import { toGatewayPath } from '#lib/http/route-matcher.ts';
import type { RouteEntry } from '#lib/routes/index.ts';
import { acknowledgeApiFindings } from './api-findings.ts';
import { addGatewayResponses } from './gateway-responses.ts';
import {
  assignSubtrees,
  COMMITTED_ROUTE_STACKS,
  ROUTE_STACK_LIMIT,
  routeStackId,
  SHARED_SEGMENTS,
  subtreeOf,
  type RouteStackMap,
} from './route-stack-map.ts';

export interface ServiceApiProps {
  /**
   * The API's name, which is also the `ApiName` dimension its metrics and alarms watch: one per stage, or
   * a dev stage's 5xx would page the prod alarm of the same account.
   */
  name: string;
  routes: readonly RouteEntry[];
  /** The Lambda of each route group, by group name. */
  groupFunctions: ReadonlyMap<string, IFunction>;
  stageName: string;
  throttle: { rateLimit: number; burstLimit: number };
  /** The usage plan's limit per API key, in requests per its window: the `RateLimit-Limit` of the gateway's 429. */
  perKeyLimit: number;
  binaryMediaTypes: readonly string[];
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
  logging: ApiLogging;
  /** Browser origins answered: an OPTIONS method on every resource, and CORS headers on gateway responses. */
  allowedOrigins: readonly string[];
  /** Names the usage-plan key of every request to a method that takes API keys (lib/api-keys/api-key-gate.ts). */
  apiKeyAuthorizer: IFunction;
  /** Answers a method or path outside the route table (functions/route-miss). */
  routeMiss: IFunction;
  /** X-Ray tracing of the stage; the functions trace with it (ServiceFunction). */
  tracing: boolean;
  /** Which routes stack holds each subtree: infra/route-stacks.json unless a test says otherwise. */
  routeStackMap?: RouteStackMap;
}

const PATH_PARAMETER = /\{([A-Za-z0-9_]+)\}/g;

/**
 * The REST API: a resource per path segment and a method per route of the route table, each proxied to
 * its group's Lambda. Authentication is the functions': their auth middleware checks the Bearer token or
 * API key each route accepts (lib/http/route.ts, AuthMode). A method that takes API keys requires a
 * usage-plan key, which a REQUEST authorizer names from whichever form the key comes in, so the usage
 * plan throttles each key at the gateway.
 *
 * The ~500 resources, methods and preflights live in nested stacks, each holding whole subtrees of the
 * path (`/api/v1/incident-ticket/...`) where infra/route-stacks.json puts them (route-stack-map.ts): in one
 * stack they would pass CloudFormation's 500.
 */
export class ServiceApi extends Construct {
  readonly api: RestApi;
  /** The nested stacks of the routes, in route-table order of their subtrees. */
  readonly routeStacks: NestedStack[];

  constructor(scope: Construct, id: string, props: ServiceApiProps) {
    super(scope, id);
    const logging = props.logging !== 'off';

    this.api = new RestApi(this, 'Api', {
      restApiName: props.name,
      description: 'Incident management API',
      endpointTypes: [EndpointType.REGIONAL],
      binaryMediaTypes: [...props.binaryMediaTypes],
      // The key forms the service accepts (`X-API-Key`, `?apiKey=` or `?api_key=`, `Authorization: ApiKey`) are
      // more than the gateway reads itself: the authorizer hands it the usage-plan key instead.
      apiKeySourceType: ApiKeySourceType.AUTHORIZER,
      // API Gateway has one logging role per account and region: set only when asked (settings.ts, apiLogging).
      cloudWatchRole: props.logging === 'createRole',
      deployOptions: {
        stageName: props.stageName,
        ...(logging && this.stageLogging(props)),
        metricsEnabled: true,
        tracingEnabled: props.tracing,
        throttlingRateLimit: props.throttle.rateLimit,
        throttlingBurstLimit: props.throttle.burstLimit,
      },
    });

    if (logging) {
      // API Gateway creates its execution log group on first use with no expiry; creating it first sets both.
      new LogGroup(this, 'ExecutionLogs', {
        logGroupName: `API-Gateway-Execution-Logs_${this.api.restApiId}/${props.stageName}`,
        retention: props.logRetention,
        removalPolicy: props.removalPolicy,
      });
    }

    const paths = props.routes.map(({ route }) => toGatewayPath(route.path));
    const assigned = assignSubtrees(
      paths,
      props.allowedOrigins.length > 0,
      props.routeStackMap ?? COMMITTED_ROUTE_STACKS,
    );
    this.routeStacks = assigned.map(
      (subtrees, index) =>
        new NestedStack(this, routeStackId(index), {
          description: `Resources and methods of the incident API: ${subtrees.map((subtree) => `/${subtree}`).join(', ')}`,
        }),
    );
    const stackOf = new Map(
      assigned.flatMap((subtrees, index) => subtrees.map((subtree) => [subtree, index] as const)),
    );
    const routeMiss = new LambdaIntegration(props.routeMiss, { scopePermissionToMethod: false });
    this.addRoutes((path) => this.routeStacks[stackOf.get(subtreeOf(path)) ?? 0] as NestedStack, routeMiss, props);
    // A resource keeps a request only for a method it declares: other methods, and paths outside the table, fall
    // through to this greedy catch-all (not the gateway's 403 "Missing Authentication Token"), whose function
    // answers 405 with Allow or 404 naming the nearest route. The stage root gets the same function first: the
    // proxy would otherwise give it a MOCK `ANY` with no responses, a 500 for `POST /`.
    this.api.root.addMethod('ANY', routeMiss);
    this.api.root.addProxy({ anyMethod: true, defaultIntegration: routeMiss });
    this.checkStackSizes();
    addGatewayResponses(this.api, props.allowedOrigins, props.perKeyLimit);
    acknowledgeApiFindings(this, props.logging);
  }

  /** Access logs in a group of the stack, and execution logs without bodies: they carry credentials. */
  private stageLogging({ logRetention, removalPolicy }: ServiceApiProps): StageOptions {
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: logRetention, removalPolicy });
    return {
      accessLogDestination: new LogGroupLogDestination(accessLogs),
      accessLogFormat: AccessLogFormat.jsonWithStandardFields({
        caller: false,
        httpMethod: true,
        ip: true,
        protocol: true,
        requestTime: true,
        resourcePath: true,
        responseLength: true,
        status: true,
        user: false,
      }),
      loggingLevel: MethodLoggingLevel.INFO,
      dataTraceEnabled: false,
    };
  }

  private addRoutes(
    stackFor: (path: string) => Construct,
    routeMiss: LambdaIntegration,
    { routes, groupFunctions, allowedOrigins, apiKeyAuthorizer }: ServiceApiProps,
  ): void {
    // The keys come in three places, and identity sources must all be present, so there are none and
    // nothing is cached by the gateway: the authorizer keeps its own short cache of checked keys.
    const authorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      handler: apiKeyAuthorizer,
      identitySources: [],
      resultsCacheTtl: Duration.seconds(0),
    });
    const validator = this.api.addRequestValidator('Validator', {
      validateRequestBody: true,
      validateRequestParameters: true,
    });
    const integrations = new Map<string, LambdaIntegration>();
    const integrationFor = (group: string): LambdaIntegration => {
      let integration = integrations.get(group);
      if (!integration) {
        const handler = groupFunctions.get(group);
        if (!handler) throw new Error(`no function for route group ${group}`);
        // One invoke permission per function for the whole API instead of one per method (two with test
        // invoke), which would add ~280 resources and break the 500-resource stack limit.
        integration = new LambdaIntegration(handler, { scopePermissionToMethod: false });
        integrations.set(group, integration);
      }
      return integration;
    };

    const methodsOf = new Map<Construct & IResource, string[]>();
    for (const { group, route } of routes) {
      const path = toGatewayPath(route.path);
      const pathParameters = [...path.matchAll(PATH_PARAMETER)].map(([, name]) => `method.request.path.${name}`);
      const resource = this.resourceFor(stackFor(path), path);
      methodsOf.set(resource, [...(methodsOf.get(resource) ?? []), route.method]);
      new Method(resource, route.method, {
        resource,
        httpMethod: route.method,
        integration: integrationFor(group),
        options: {
          ...(takesApiKeys(route)
            ? { authorizer, authorizationType: AuthorizationType.CUSTOM, apiKeyRequired: true }
            : { authorizationType: AuthorizationType.NONE }),
          requestValidator: validator,
          requestParameters: Object.fromEntries(pathParameters.map((parameter) => [parameter, true])),
        },
      });
    }
    this.answerOtherMethodsBesideParameters(methodsOf, routeMiss);
    if (allowedOrigins.length === 0) return;
    // The preflight is the gateway's own answer (a mock integration): no function runs for it. With `*/*` a
    // binary media type, a MOCK without content handling fails with "Unable to transform request" (a 500).
    for (const [resource, methods] of methodsOf) {
      const preflight = resource.addCorsPreflight({
        allowOrigins: [...allowedOrigins],
        allowMethods: methods,
        allowHeaders: [...CORS_ALLOW_HEADERS],
        maxAge: Duration.seconds(CORS_MAX_AGE_SECONDS),
      });
      (preflight.node.defaultChild as CfnMethod).addPropertyOverride('Integration.ContentHandling', 'CONVERT_TO_TEXT');
    }
  }

  /**
   * A literal path beside a parameter (`/signals/bulk` beside `/signals/{id}`): API Gateway hands a method the
   * literal lacks to the parameter's method of that name (`id="bulk"`), not to the catch-all. An `ANY` on the
   * literal, which a declared method outranks, sends the rest to route-miss for its 405 with `Allow`.
   */
  private answerOtherMethodsBesideParameters(
    methodsOf: ReadonlyMap<Construct & IResource, string[]>,
    routeMiss: LambdaIntegration,
  ): void {
    for (const resource of methodsOf.keys()) {
      const parent = resource.parentResource;
      if (!parent || resource.path.endsWith('}')) continue;
      const besideParameter = (parent as Resource).node.children.some(
        (child) => child instanceof Resource && child.path.endsWith('}'),
      );
      if (besideParameter) resource.addMethod('ANY', routeMiss, { authorizationType: AuthorizationType.NONE });
    }
  }

  /** Fails the synth, not the deploy, when a routes stack nears CloudFormation's 500 resources. */
  private checkStackSizes(): void {
    for (const stack of this.routeStacks) {
      const size = stack.node.findAll().filter((construct) => construct instanceof CfnResource).length;
      if (size > ROUTE_STACK_LIMIT) {
        throw new Error(
          `routes stack ${stack.node.id} holds ${size} resources, over ${ROUTE_STACK_LIMIT} (CloudFormation takes 500). ` +
            'Subtrees never move between stacks: put new subtrees in a new stack in infra/route-stacks.json, and ' +
            'move an existing one only with the two-step upgrade of docs/deploying.md ("Upgrading").',
        );
      }
    }
  }

  /**
   * `api.root.resourceForPath` would create every resource beside the API. These nest under the first
   * routes stack, each under its parent as resourceForPath lays them out, except that a subtree packed into
   * another routes stack starts there (so the first stack's resources keep the ids they had before the split).
   */
  private resourceFor(stack: Construct, path: string): Construct & IResource {
    const [first] = this.routeStacks;
    if (!first) throw new Error('the API has no routes stack');
    let resource = this.api.root as Construct & IResource;
    path
      .split('/')
      .filter(Boolean)
      .forEach((pathPart, depth) => {
        const parent = resource;
        const scope = depth === 0 ? first : depth === SHARED_SEGMENTS && stack !== first ? stack : parent;
        resource =
          (parent.getResource(pathPart) as Resource | undefined) ?? new Resource(scope, pathPart, { parent, pathPart });
      });
    return resource;
  }
}
