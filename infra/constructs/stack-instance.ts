import { Aws, Fn } from 'aws-cdk-lib';

/**
 * Eight hex digits that differ for every stack CloudFormation creates (the first block of the UUID in the
 * stack's id), the same for every update of it. A retained resource with a fixed name outlives `cdk destroy`
 * and makes the next deploy of the stack fail on "already exists"; this in its name makes the next stack's
 * resource a new one, beside the kept one.
 */
export const stackInstance = (): string => Fn.select(0, Fn.split('-', Fn.select(2, Fn.split('/', Aws.STACK_ID))));
