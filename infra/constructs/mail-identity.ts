import { Aws, CfnOutput, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { EmailIdentity, Identity } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';

export interface MailIdentityProps {
  mailFrom: string;
  /** `mailFrom` itself, or a domain it belongs to. */
  identity: string;
  /**
   * The identity is already in SES (another stage's, or verified by hand): SES holds one identity of a
   * name per account and region, so creating it again fails the deploy. The stack then only sends from it.
   */
  existing: boolean;
}

/**
 * The SES identity mail is sent from, unless it already exists. An address identity is verified by the link
 * SES mails to it; a domain identity by the three DKIM CNAME records this stack outputs, added at the
 * domain's DNS.
 */
export class MailIdentity extends Construct {
  constructor(
    scope: Construct,
    id: string,
    private readonly props: MailIdentityProps,
  ) {
    super(scope, id);
    if (props.existing) return;
    const isDomain = !props.identity.includes('@');
    const identity = new EmailIdentity(this, 'Identity', {
      identity: isDomain ? Identity.domain(props.identity) : Identity.email(props.identity),
    });
    if (isDomain) {
      identity.dkimRecords.forEach((record, index) => {
        new CfnOutput(scope, `MailDkimRecord${index + 1}`, {
          value: `${record.name} CNAME ${record.value}`,
          description: `DKIM record ${index + 1} of 3 to add at the DNS of ${props.identity}`,
        });
      });
    }
  }

  /**
   * SES checks the sending identity, and in the sandbox the recipients' identities too, so the grant
   * names identities by wildcard and pins the sender with `ses:FromAddress` instead.
   */
  grantSend(fn: IFunction): void {
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [`arn:${Aws.PARTITION}:ses:${Aws.REGION}:${Aws.ACCOUNT_ID}:identity/*`],
        conditions: { StringEquals: { 'ses:FromAddress': this.props.mailFrom } },
      }),
    );
    Validations.of(fn.role ?? fn).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/*]',
      reason:
        'SES authorizes the recipient identities as well while the account is in the sandbox; the ' +
        'ses:FromAddress condition limits the function to the configured sender.',
    });
  }
}
