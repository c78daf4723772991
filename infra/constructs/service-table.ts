import type { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Grant, PolicyStatement, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { TABLE_INDEXES, TABLE_PARTITION_KEY, TABLE_SORT_KEY, TTL_ATTRIBUTE } from '#lib/store/table-schema.ts';
import { limiterKey } from '#lib/store/keys.ts';
import { apiKeyPartition } from '#lib/api-keys/api-key-repository.ts';
import type { TableAccess } from '#lib/ports/need.ts';

/**
 * Exactly what the repositories call, on the table and its three indexes by name. No Scan (list
 * endpoints query keys) and no Transact* (the design uses single-item conditional writes, which the
 * embedded local store supports too).
 */
const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

export interface ServiceTableProps {
  removalPolicy: RemovalPolicy;
  /** Refuses a DeleteTable call, whoever makes it; on for prod. */
  deletionProtection: boolean;
}

/** The single table of lib/store/table-schema.ts: on demand, with point-in-time recovery and TTL. */
export class ServiceTable extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string, props: ServiceTableProps) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: TABLE_PARTITION_KEY, type: AttributeType.STRING },
      sortKey: { name: TABLE_SORT_KEY, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TTL_ATTRIBUTE,
      deletionProtection: props.deletionProtection,
      removalPolicy: props.removalPolicy,
    });
    for (const index of TABLE_INDEXES) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
      });
    }
  }

  /** `limiterCounters` writes limiter windows and touches nothing else; `read` writes nothing. */
  grant(grantee: IGrantable, access: TableAccess): void {
    if (access === 'limiterCounters') {
      this.grantLimiterCounters(grantee);
      return;
    }
    const actions = access === 'read' ? READ_ACTIONS : [...READ_ACTIONS, ...WRITE_ACTIONS];
    Grant.addToPrincipal({ grantee, actions, resourceArns: this.arns() });
  }

  /**
   * Rate limiting counts every request in `LIMIT#` items, so read-only functions need to update those
   * items and no others; `dynamodb:LeadingKeys` pins the partition keys they may write.
   */
  private grantLimiterCounters(grantee: IGrantable): void {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [this.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${limiterKey('')}*`] } },
      }),
    );
  }

  /**
   * Authenticating an API key refreshes its `lastUsedAt`, so a function that takes API keys but may not
   * write data may still update API key items: `dynamodb:LeadingKeys` pins their partitions.
   */
  grantApiKeyUsage(grantee: IGrantable): void {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [this.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [apiKeyPartition('*')] } },
      }),
    );
  }

  private arns(): string[] {
    return [this.table.tableArn, ...TABLE_INDEXES.map((index) => `${this.table.tableArn}/index/${index.indexName}`)];
  }
}
