import type { EscalationPolicyInput } from './schemas.ts';

/** An escalation policy as stored and answered (docs/on-call.md, "Escalation policies"). */
export interface EscalationPolicy extends EscalationPolicyInput {
  id: string;
  createdAt: string;
  updatedAt: string;
}
