import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';

export interface SweepFunctions {
  correlationSweep: IFunction;
  slaSweep: IFunction;
  counterRecount: IFunction;
  /** Minutes between two SLA sweeps (`-c slaSweepMinutes`). */
  slaSweepMinutes: number;
}

/** The schedules of the sweeps and the recount, in the stack's own scope so their logical ids stay as they were. */
export const scheduleSweeps = (stack: Construct, functions: SweepFunctions): void => {
  new Rule(stack, 'CorrelationSweepSchedule', {
    description: 'Runs the correlation sweep every minute',
    schedule: Schedule.rate(Duration.minutes(1)),
    targets: [new LambdaTarget(functions.correlationSweep)],
  });
  new Rule(stack, 'SlaSweepSchedule', {
    description: 'Records the SLA breaches of passed deadlines every five minutes',
    schedule: Schedule.rate(Duration.minutes(functions.slaSweepMinutes)),
    targets: [new LambdaTarget(functions.slaSweep)],
  });
  new Rule(stack, 'CounterRecountSchedule', {
    description: 'Recounts the list counters daily, at a quiet hour',
    schedule: Schedule.cron({ minute: '17', hour: '3' }),
    targets: [new LambdaTarget(functions.counterRecount)],
  });
};
