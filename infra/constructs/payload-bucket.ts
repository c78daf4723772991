import { Duration, Stack, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { QUEUED_OBJECT_DAYS, TRANSIENT_TAG } from '#lib/ports/object-store/object-store.ts';
import { ENV } from '#lib/ports/env.ts';
import type { ObjectAccess } from '#lib/ports/need.ts';

export interface PayloadBucketProps {
  removalPolicy: RemovalPolicy;
}

/**
 * The object store of lib/ports/object-store: signal metadata too large for its item (kept as long as the
 * signal, which has no expiry) and queued events too large for their message (tagged transient and expired
 * after QUEUED_OBJECT_DAYS, longer than SQS keeps a message). Private, encrypted, TLS only.
 */
export class PayloadBucket extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: PayloadBucketProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      removalPolicy: props.removalPolicy,
      lifecycleRules: [
        {
          id: 'expire-transient-objects',
          tagFilters: { [TRANSIENT_TAG.key]: TRANSIENT_TAG.value },
          expiration: Duration.days(QUEUED_OBJECT_DAYS),
        },
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'Only the service functions reach this bucket, through their IAM roles, and every object is reached ' +
        'through the API, whose access logs name the caller; S3 server access logs would add a second bucket ' +
        'to the stack for no new information. CloudTrail S3 data events can be turned on for an audit trail.',
    });
  }

  /** Sets PAYLOAD_BUCKET_NAME and grants exactly the object actions asked for, on objects only. */
  bind(lambda: LambdaFunction, access: ObjectAccess): void {
    lambda.addEnvironment(ENV.payloadBucket, this.bucket.bucketName);
    const actions = [
      ...(access === 'write' ? [] : ['s3:GetObject']),
      ...(access === 'read' ? [] : ['s3:PutObject', 's3:PutObjectTagging']),
    ];
    lambda.addToRolePolicy(new PolicyStatement({ actions, resources: [this.bucket.arnForObjects('*')] }));
    const stack = Stack.of(this);
    const bucketId = stack.resolve(stack.getLogicalId(this.bucket.node.defaultChild as CfnBucket)) as string;
    Validations.of(lambda.role ?? lambda).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/*]`,
      reason:
        'Object keys start with a workspace id known only at run time; the grant names object actions only ' +
        '(no listing, no deletion, no bucket settings) on this one bucket.',
    });
  }
}
