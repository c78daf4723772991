import { describe, expect, it } from 'vitest';
import { evaluate, type PolicyStatement } from '../support/iam/policy-evaluator.ts';
import { templateResolver, TEST_DEPLOYMENT, type CfnTemplate } from '../support/iam/template-resolver.ts';

const TABLE = 'arn:aws:dynamodb:eu-west-1:123456789012:table/store';

describe('the IAM policy evaluator', () => {
  const reads: PolicyStatement = { Effect: 'Allow', Action: 'dynamodb:Get*', Resource: [TABLE, `${TABLE}/index/*`] };

  it('allows by action and resource wildcards, actions without case, and denies by default', () => {
    expect(evaluate([reads], { action: 'dynamodb:GetItem', resource: TABLE })).toBe('allowed');
    expect(evaluate([reads], { action: 'DynamoDB:getitem', resource: `${TABLE}/index/gsi1` })).toBe('allowed');
    expect(evaluate([reads], { action: 'dynamodb:PutItem', resource: TABLE })).toBe('implicitDeny');
    expect(evaluate([reads], { action: 'dynamodb:GetItem', resource: `${TABLE}2` })).toBe('implicitDeny');
    expect(evaluate([reads], { action: 'dynamodb:GetItem', resource: TABLE.toUpperCase() })).toBe('implicitDeny');
    const oneChar: PolicyStatement = { Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:aws:s3:::b/?' };
    expect(evaluate([oneChar], { action: 's3:GetObject', resource: 'arn:aws:s3:::b/k' })).toBe('allowed');
    expect(evaluate([oneChar], { action: 's3:GetObject', resource: 'arn:aws:s3:::b/kk' })).toBe('implicitDeny');
  });

  it('lets an explicit Deny win, and reads NotAction and NotResource', () => {
    const deny: PolicyStatement = { Effect: 'Deny', NotAction: 'dynamodb:Query', NotResource: `${TABLE}/index/*` };
    expect(evaluate([reads, deny], { action: 'dynamodb:GetItem', resource: TABLE })).toBe('explicitDeny');
    expect(evaluate([reads, deny], { action: 'dynamodb:GetItem', resource: `${TABLE}/index/gsi1` })).toBe('allowed');
  });

  it('checks ForAllValues:StringLike on dynamodb:LeadingKeys item by item, an empty set passing', () => {
    const limiter: PolicyStatement = {
      Effect: 'Allow',
      Action: 'dynamodb:UpdateItem',
      Resource: TABLE,
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['LIMIT#*'] } },
    };
    const update = (keys: string[]) => ({
      action: 'dynamodb:UpdateItem',
      resource: TABLE,
      context: { 'dynamodb:LeadingKeys': keys },
    });
    expect(evaluate([limiter], update(['LIMIT#global#1']))).toBe('allowed');
    expect(evaluate([limiter], update(['LIMIT#a', 'WS#1']))).toBe('implicitDeny');
    expect(evaluate([limiter], update([]))).toBe('allowed');
  });

  it('checks StringEquals on ses:FromAddress, failing when the key is missing unless IfExists', () => {
    const send = (from?: string) => ({
      action: 'ses:SendEmail',
      resource: 'arn:aws:ses:eu-west-1:123456789012:identity/x@example.com',
      ...(from && { context: { 'ses:FromAddress': from } }),
    });
    const statement = (operator: string): PolicyStatement => ({
      Effect: 'Allow',
      Action: 'ses:SendEmail',
      Resource: 'arn:aws:ses:eu-west-1:123456789012:identity/*',
      Condition: { [operator]: { 'ses:FromAddress': 'no-reply@example.com' } },
    });
    expect(evaluate([statement('StringEquals')], send('no-reply@example.com'))).toBe('allowed');
    expect(evaluate([statement('StringEquals')], send('ceo@example.com'))).toBe('implicitDeny');
    expect(evaluate([statement('StringEquals')], send())).toBe('implicitDeny');
    expect(evaluate([statement('StringEqualsIfExists')], send())).toBe('allowed');
    expect(evaluate([statement('StringNotEquals')], send('ceo@example.com'))).toBe('allowed');
    expect(() => evaluate([statement('NumericLessThan')], send('a'))).toThrow('NumericLessThan');
  });
});

describe('the template resolver', () => {
  const template: CfnTemplate = {
    Resources: {
      Table: { Type: 'AWS::DynamoDB::Table' },
      Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'work' } },
      Bucket: { Type: 'AWS::S3::Bucket' },
    },
  };
  const resolve = templateResolver(template, TEST_DEPLOYMENT, { NestedParameter: 'from-parent' });

  it('resolves Ref, Fn::GetAtt, Fn::Join, Fn::Sub, pseudo parameters and parameters', () => {
    const name = resolve({ Ref: 'Table' }) as string;
    expect(resolve({ 'Fn::GetAtt': ['Table', 'Arn'] })).toBe(`arn:aws:dynamodb:eu-west-1:123456789012:table/${name}`);
    expect(resolve({ 'Fn::Join': ['', [{ 'Fn::GetAtt': ['Table', 'Arn'] }, '/index/gsi1']] })).toBe(
      `arn:aws:dynamodb:eu-west-1:123456789012:table/${name}/index/gsi1`,
    );
    expect(resolve({ 'Fn::GetAtt': ['Queue', 'Arn'] })).toBe('arn:aws:sqs:eu-west-1:123456789012:work');
    expect(resolve({ Ref: 'Queue' })).toBe('https://sqs.eu-west-1.amazonaws.com/123456789012/work');
    // Fn::Sub's own `${...}` syntax, in plain strings on purpose.
    const bucketObjects = ['arn:$', '{AWS::Partition}:s3:::$', '{Bucket}/*'].join('');
    expect(resolve({ 'Fn::Sub': bucketObjects })).toBe(`${resolve({ 'Fn::GetAtt': ['Bucket', 'Arn'] })}/*`);
    const regional = ['$', '{A}.$', '{AWS::URLSuffix}'].join('');
    expect(resolve({ 'Fn::Sub': [regional, { A: { Ref: 'AWS::Region' } }] })).toBe('eu-west-1.amazonaws.com');
    expect(resolve({ Ref: 'NestedParameter' })).toBe('from-parent');
    expect(() => resolve({ 'Fn::If': ['c', 'a', 'b'] })).toThrow('Fn::If');
  });
});
