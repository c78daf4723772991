import type { SenderFixtures } from '../sender.ts';

/** What the tests post and the demo replays, as the sender posts it (test/fixtures/README.md). */
export const fixtures: SenderFixtures = {
  files: [
    'cloudwatch-alarm-state-change.json',
    'codedeploy-success.json',
    'codepipeline-failed.json',
    'ec2-instance-state-change.json',
    'ecs-deployment-completed.json',
    'guardduty-finding.json',
    'health-issue.json',
  ],
};
