import type { ImportPolicy } from './import-set.ts';

export type PolicyBody =
  | {
      body: {
        name: string;
        levels: { delayMinutes: number; targets: { type: string; id: string }[] }[];
        repeat: number;
      };
    }
  | { missing: string[] };

/**
 * An imported policy as the escalation-policy routes of issue 43 take it (`name`, `levels[]` of `delayMinutes` and
 * `targets[]` of `{ type: schedule | member, id }`, `repeat`), with the workspace's ids; apart from the other
 * mappings so that it follows that shape alone. While a schedule or person it pages is not in the workspace
 * yet, it answers what is missing instead: a policy is created whole or not at all.
 */
export const escalationPolicyBody = (
  policy: ImportPolicy,
  ids: { members: Map<string, string>; schedules: Map<string, string> },
): PolicyBody => {
  const missing: string[] = [];
  const mapped = policy.levels.map((level) => ({
    delayMinutes: level.delayMinutes,
    targets: level.targets.flatMap((target) => {
      const id = target.type === 'member' ? ids.members.get(target.email) : ids.schedules.get(target.schedule);
      if (!id) missing.push(target.type === 'member' ? target.email : `schedule "${target.schedule}"`);
      return id ? [{ type: target.type, id }] : [];
    }),
  }));
  // A level whose every target the export could not name (reported as unmapped) pages nobody: left out.
  const levels = mapped.filter((level) => level.targets.length > 0);
  if (levels.length === 0) missing.push('a level with a target');
  return missing.length > 0 ? { missing } : { body: { name: policy.name, levels, repeat: policy.repeat } };
};
