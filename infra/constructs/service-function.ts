import { join } from 'node:path';
import { Duration, Stack, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ENV } from '#lib/ports/env.ts';
import { cdkBundling, functionEntry, PROJECT_ROOT } from '../bundling.ts';
import type { TableAccess } from '#lib/ports/need.ts';
import type { ServiceTable } from './service-table.ts';

export interface ServiceFunctionProps {
  /** The folder `functions/<name>/` whose `index.ts` exports `handler`. */
  name: string;
  description: string;
  /** A fixed name, for a function referenced by name; by default CloudFormation names it. */
  functionName?: string;
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
  /** Default 15 s: API Gateway gives up after 29 s, and no route should come close. */
  timeout?: Duration;
  /**
   * Default 1024 MB: on Lambda memory buys CPU, which the cold import of a ~700 KB bundle and password
   * hashing both need.
   */
  memorySize?: number;
  environment?: Record<string, string>;
}

/**
 * A Node 22 arm64 function bundled by esbuild as minified ESM with source maps, writing only to its
 * own log group.
 */
export class ServiceFunction extends Construct {
  readonly lambda: NodejsFunction;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'Logs', {
      logGroupName: `/aws/lambda/${Stack.of(this).stackName}-${props.name}`,
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    // Our own role rather than the default one, whose AWSLambdaBasicExecutionRole may write to every
    // log group of the account: this one writes to the function's log group only.
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs the ${props.name} function`,
    });
    this.logGroup.grantWrite(role);

    this.lambda = new NodejsFunction(this, 'Function', {
      entry: functionEntry(props.name),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 1024,
      timeout: props.timeout ?? Duration.seconds(15),
      description: props.description,
      functionName: props.functionName,
      role,
      logGroup: this.logGroup,
      bundling: cdkBundling(),
      environment: { NODE_OPTIONS: '--enable-source-maps', ...props.environment },
    });

    Validations.of(this.lambda).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Node 22 is the runtime the service is built and tested for (the bundles target node22); moving to a ' +
        'newer runtime is a deliberate upgrade with its own test run, not a side effect of a CDK release.',
    });
  }

  /** Sets TABLE_NAME and grants exactly the access asked for. */
  bindTable(table: ServiceTable, access: TableAccess): void {
    this.lambda.addEnvironment(ENV.table, table.table.tableName);
    table.grant(this.lambda, access);
  }
}
