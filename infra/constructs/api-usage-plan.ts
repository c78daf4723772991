import { Aws, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import { UsagePlan, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { PolicyStatement, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';

export interface ApiUsagePlanProps {
  api: RestApi;
  /** Requests a minute per API key; default 100, the spec's API-key limit. */
  requestsPerMinute?: number;
}

/** The usage plan the service's API keys are mirrored into, bound to the API's stage. */
export class ApiUsagePlan extends Construct {
  readonly plan: UsagePlan;

  constructor(scope: Construct, id: string, props: ApiUsagePlanProps) {
    super(scope, id);
    const perMinute = props.requestsPerMinute ?? 100;
    this.plan = new UsagePlan(this, 'Plan', {
      description: 'Per-key throttle of the incident API; keys are added by the api-keys function',
      // API Gateway throttles with a token bucket in requests per second: 100 a minute is ~1.67/s. A
      // bucket of 20 lets a sender flush a short backlog (a retried batch) at once, while a full
      // minute still stays near the limit (at most 100 + 20), rather than the 100-request burst a
      // bucket the size of the whole minute would allow.
      throttle: { rateLimit: Math.round((perMinute / 60) * 100) / 100, burstLimit: 20 },
      apiStages: [{ api: props.api, stage: props.api.deploymentStage }],
    });
  }

  /**
   * Creating, enabling and deleting gateway API keys (CreateApiKey, UpdateApiKey, DeleteApiKey) and
   * adding them to and removing them from this plan (CreateUsagePlanKey, DeleteUsagePlanKey). IAM has
   * no finer action than the HTTP verb, and a key's id exists only once it is created, hence `/*`.
   * No GET is granted: nothing of ours ever reads a gateway key back.
   */
  grantKeyManagement(grantee: IGrantable): void {
    const principal = grantee.grantPrincipal;
    const keys = `arn:${Aws.PARTITION}:apigateway:${Aws.REGION}::/usageplans/${this.plan.usagePlanId}/keys`;
    principal.addToPrincipalPolicy(new PolicyStatement({ actions: ['apigateway:POST'], resources: [keys] }));
    principal.addToPrincipalPolicy(new PolicyStatement({ actions: ['apigateway:DELETE'], resources: [`${keys}/*`] }));
    const apiKeys = `arn:${Aws.PARTITION}:apigateway:${Aws.REGION}::/apikeys`;
    principal.addToPrincipalPolicy(new PolicyStatement({ actions: ['apigateway:POST'], resources: [apiKeys] }));
    principal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['apigateway:PATCH', 'apigateway:DELETE'], resources: [`${apiKeys}/*`] }),
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
      reason: 'Enables, disables and deletes the gateway keys it created; IAM cannot tie API keys to one usage plan.',
    });
  }
}
