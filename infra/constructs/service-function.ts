import { dirname } from 'node:path';
import { buildSync } from 'esbuild';
import { AssetHashType, DockerImage, type Duration, Stack, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ENV } from '#lib/ports/env.ts';
import { functionFiles, esbuildOptions, functionEntry, LAMBDA_HANDLER } from '../bundling.ts';
import type { TableAccess } from '#lib/ports/need.ts';
import type { ServiceTable } from './service-table.ts';
import { stackInstance } from './stack-instance.ts';

export interface ServiceFunctionProps {
  /** The folder `functions/<name>/` whose `index.ts` exports `handler`. */
  name: string;
  description: string;
  /** A fixed name, for a function referenced by name; by default CloudFormation names it. */
  functionName?: string;
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
  /** From infra/function-timeouts.ts, which the local stack enforces too. */
  timeout: Duration;
  /**
   * Default 1024 MB: on Lambda memory buys CPU, which the cold import of a ~400 KB bundle and password
   * hashing both need.
   */
  memorySize?: number;
  environment?: Record<string, string>;
  /** Concurrency reserved from the account, which is also the most the function may run at once. */
  reservedConcurrency?: number;
  /** X-Ray active tracing, on whenever the API stage traces, so a trace follows a request past the gateway. */
  tracing: boolean;
}

/**
 * The function's bundle, built by esbuild on this machine exactly as `npm run build` builds it. Not a
 * `NodejsFunction`: that bundles to one file, and the bundles are split (infra/bundling.ts). Local
 * bundling needs no Docker and always succeeds here; the image is only named because CDK requires one.
 */
const bundledCode = (name: string): Code => {
  const entry = functionEntry(name);
  return Code.fromAsset(dirname(entry), {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      image: DockerImage.fromRegistry('local-bundling-only'),
      local: {
        tryBundle(outputDir) {
          buildSync(esbuildOptions(entry, outputDir));
          functionFiles(name, outputDir);
          return true;
        },
      },
    },
  });
};

/**
 * A Node 22 arm64 function bundled by esbuild as minified, split ESM with source maps, writing only to
 * its own log group.
 */
export class ServiceFunction extends Construct {
  readonly lambda: LambdaFunction;
  readonly logGroup: LogGroup;
  readonly timeout: Duration;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    this.timeout = props.timeout;
    this.logGroup = new LogGroup(this, 'Logs', {
      logGroupName: `/aws/lambda/${Stack.of(this).stackName}-${props.name}-${stackInstance()}`,
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

    this.lambda = new LambdaFunction(this, 'Function', {
      code: bundledCode(props.name),
      handler: LAMBDA_HANDLER,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 1024,
      timeout: props.timeout,
      reservedConcurrentExecutions: props.reservedConcurrency,
      description: props.description,
      functionName: props.functionName,
      role,
      logGroup: this.logGroup,
      tracing: props.tracing ? Tracing.ACTIVE : Tracing.DISABLED,
      environment: { NODE_OPTIONS: '--enable-source-maps', ...props.environment },
    });

    Validations.of(this.lambda).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Node 22 is the runtime the service is built and tested for (the bundles target node22); moving to a ' +
        'newer runtime is a deliberate upgrade with its own test run, not a side effect of a CDK release.',
    });
    if (props.tracing) {
      Validations.of(role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'X-Ray active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords have no resource type, so ' +
          'IAM names them only on `*`; they write traces and nothing else.',
      });
    }
  }

  /** Sets TABLE_NAME and grants exactly the access asked for. */
  bindTable(table: ServiceTable, access: TableAccess): void {
    this.lambda.addEnvironment(ENV.table, table.table.tableName);
    table.grant(this.lambda, access);
  }
}
