import { CfnOutput } from 'aws-cdk-lib';
import type { Construct } from 'constructs';

/** What a deployer reads after a deploy: the URLs, the table a restore starts from, the keys' tag. */
export const addStackOutputs = (
  stack: Construct,
  { apiUrl, tableName, usagePlanId }: { apiUrl: string; tableName: string; usagePlanId: string },
): void => {
  new CfnOutput(stack, 'ApiUrl', { value: apiUrl, description: 'Base URL of the API stage' });
  new CfnOutput(stack, 'TableName', {
    value: tableName,
    description: 'The table the functions read and write: the source of a point-in-time restore (README)',
  });
  new CfnOutput(stack, 'UsagePlanId', {
    value: usagePlanId,
    description: 'The tag value of the gateway keys the service creates, which cdk destroy leaves (docs/deploying.md)',
  });
  new CfnOutput(stack, 'ConsoleUrl', {
    value: apiUrl,
    description: 'The web console (docs/console.md), where links in e-mail point unless appUrl is set',
  });
};
