import { Aws, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import { ApiKey, UsagePlan, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { LimitWindow } from '#lib/ports/rate-limits.ts';
import { USAGE_PLAN_TAG } from '#lib/ports/usage-plan/usage-plan.ts';
import { PolicyStatement, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';

export interface ApiUsagePlanProps {
  api: RestApi;
  /** The per-key limit: the `apikey` limiter's setting (the spec's 100 a minute by default). */
  perKey: LimitWindow;
}

/**
 * The usage plans of the API's stage. Every method that takes API keys requires a usage-plan key, which
 * the authorizer names: a service API key's own mirror in `plan`, throttled per key, or for any other
 * caller (Bearer tokens, bad keys the function will refuse) the one shared key of `unkeyedPlan`, which
 * has no per-key throttle, so only the stage's throttle applies to it.
 */
export class ApiUsagePlan extends Construct {
  readonly plan: UsagePlan;
  readonly unkeyedPlan: UsagePlan;
  /** The shared key's value, which the authorizer returns; it identifies a bucket and grants nothing. */
  readonly unkeyedKeyValue: string;

  constructor(scope: Construct, id: string, props: ApiUsagePlanProps) {
    super(scope, id);
    const { limit, windowSeconds } = props.perKey;
    this.plan = new UsagePlan(this, 'Plan', {
      description: 'Per-key throttle of the incident API; keys are added by the api-keys function',
      // API Gateway throttles with a token bucket in requests per second: 100 a minute is ~1.67/s, and a
      // bucket of the whole limit refuses the 101st request of a burst, as the spec's limit does. After
      // an idle minute a key can send 100 at once and then 100 more over the next minute; sustained,
      // it gets 100 a minute.
      throttle: { rateLimit: Math.round((limit / windowSeconds) * 100) / 100, burstLimit: limit },
      apiStages: [{ api: props.api, stage: props.api.deploymentStage }],
    });
    this.unkeyedPlan = new UsagePlan(this, 'UnkeyedPlan', {
      description: 'Requests without an API key the authorizer vouched for: the stage throttle applies',
      apiStages: [{ api: props.api, stage: props.api.deploymentStage }],
    });
    // Gateway key values are unique per account and region, so the stack's name is part of it.
    this.unkeyedKeyValue = `${Stack.of(this).stackName}-unkeyed-callers`;
    this.unkeyedPlan.addApiKey(
      new ApiKey(this, 'UnkeyedKey', {
        description: 'Shared usage-plan key of callers without a service API key',
        value: this.unkeyedKeyValue,
      }),
    );
  }

  /**
   * Creating, enabling and deleting gateway API keys (CreateApiKey, UpdateApiKey, DeleteApiKey) and
   * adding them to and removing them from this plan (CreateUsagePlanKey, DeleteUsagePlanKey). IAM has
   * no finer action than the HTTP verb, and a key's id exists only once it is created, hence `/*`, narrowed to
   * the keys carrying this plan's tag (USAGE_PLAN_TAG).
   * No GET is granted: nothing of ours ever reads a gateway key back.
   */
  grantKeyManagement(grantee: IGrantable): void {
    const principal = grantee.grantPrincipal;
    const keys = `arn:${Aws.PARTITION}:apigateway:${Aws.REGION}::/usageplans/${this.plan.usagePlanId}/keys`;
    principal.addToPrincipalPolicy(new PolicyStatement({ actions: ['apigateway:POST'], resources: [keys] }));
    principal.addToPrincipalPolicy(new PolicyStatement({ actions: ['apigateway:DELETE'], resources: [`${keys}/*`] }));
    // Only keys tagged with this plan: created with the tag, changed and deleted only while they carry it.
    const ownKeys = (tag: 'RequestTag' | 'ResourceTag') => ({
      StringEquals: { [`aws:${tag}/${USAGE_PLAN_TAG}`]: this.plan.usagePlanId },
    });
    const apiKeys = `arn:${Aws.PARTITION}:apigateway:${Aws.REGION}::/apikeys`;
    principal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['apigateway:POST'], resources: [apiKeys], conditions: ownKeys('RequestTag') }),
    );
    principal.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['apigateway:PATCH', 'apigateway:DELETE'],
        resources: [`${apiKeys}/*`],
        conditions: ownKeys('ResourceTag'),
      }),
    );

    if (!Construct.isConstruct(principal)) return;
    const stack = Stack.of(this);
    const planId = stack.resolve(stack.getLogicalId(this.plan.node.defaultChild as CfnElement)) as string;
    Validations.of(principal).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:apigateway:<AWS::Region>::/usageplans/<${planId}>/keys/*]`,
      reason: 'Removes keys of the service usage plan only; a key id is known only once the key is created.',
    });
    Validations.of(principal).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:apigateway:<AWS::Region>::/apikeys/*]',
      reason:
        'Enables, disables and deletes only gateway keys tagged with this usage plan (aws:ResourceTag); a key id ' +
        'is known only once the key is created.',
    });
  }
}
