import { Validations } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { ApiLogging } from '../settings.ts';

/** cdk-nag's findings on the REST API that are decisions, not defects, each with its reason. */
export const acknowledgeApiFindings = (api: Construct, logging: ApiLogging): void => {
  if (logging === 'off') {
    const off =
      'API Gateway logging needs the account-wide logging role, which this stack leaves alone unless asked: ' +
      'deploy with -c apiLogging=existingRole (or createRole) to log; the functions log every request meanwhile.';
    Validations.of(api).acknowledge(
      { id: 'AwsSolutions-APIG1', reason: off },
      { id: 'AwsSolutions-APIG6', reason: off },
    );
  }
  const authenticatedInFunction =
    'Every route authenticates in its function: the auth middleware verifies the Bearer token (JWT) or the ' +
    'API key the route table allows, and a few routes (health, login, register, invitations) are public by ' +
    'the specification. API Gateway cannot express the API-key forms the service accepts.';
  Validations.of(api).acknowledge(
    { id: 'AwsSolutions-APIG4', reason: authenticatedInFunction },
    { id: 'AwsSolutions-COG4', reason: `${authenticatedInFunction} No Cognito user pool is used.` },
    {
      id: 'AwsSolutions-APIG3',
      reason:
        'No WAF web ACL in this stack: the stage throttles all traffic and the functions rate-limit per ' +
        'client address, per login and per API key; a WAF web ACL can be associated with the stage per deployment.',
    },
  );
  if (logging === 'createRole') {
    Validations.of(api).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason:
        'The account-level API Gateway logging role needs the AWS-managed policy made for it: API Gateway ' +
        'creates and names the execution log groups itself, so no narrower resource list exists.',
    });
  }
};
