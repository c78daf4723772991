import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { AuthorizationType, LambdaIntegration, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { consolePaths } from '#lib/console-site/console-site.ts';
import { functionTimeoutSeconds } from '../function-timeouts.ts';
import { ServiceFunction } from './service-function.ts';

export interface ConsoleSiteProps {
  api: RestApi;
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
  tracing: boolean;
}

/**
 * The web console at the root of the API's stage URL, the default `appUrl`: a GET method for each page and
 * each built file, proxied to a small function that answers them from its bundle (functions/console). The
 * paths sit beside `/api`, never below it, so no route of the API is shadowed; it costs nothing idle.
 * Its resources are the API's own (`resourceForPath`), outside the routes' nested stack.
 */
export class ConsoleSite extends Construct {
  readonly fn: ServiceFunction;

  constructor(scope: Construct, id: string, { api, logRetention, removalPolicy, tracing }: ConsoleSiteProps) {
    super(scope, id);
    this.fn = new ServiceFunction(this, 'Function', {
      name: 'console',
      description: 'Serves the web console: its page and its two built files',
      logRetention,
      removalPolicy,
      tracing,
      // Reads two files once per container and answers from memory: no table, no hashing, no SDK.
      memorySize: 256,
      timeout: Duration.seconds(functionTimeoutSeconds('console')),
    });
    const integration = new LambdaIntegration(this.fn.lambda, { scopePermissionToMethod: false });
    for (const path of consolePaths()) {
      const resource = path === '/' ? api.root : api.root.resourceForPath(path);
      const parameters = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => `method.request.path.${name}`);
      resource.addMethod('GET', integration, {
        authorizationType: AuthorizationType.NONE,
        requestParameters: Object.fromEntries(parameters.map((parameter) => [parameter, true])),
      });
    }
  }
}
