import type { AccountScope } from '#lib/identity/scope.ts';
import type { Reasoner } from '#lib/ports/reasoner/reasoner.ts';
import { defaultReasoner } from './default-reasoner.ts';

/** The engine a scope reasons with: the deployment's model over the rules, or the rules alone. */
export const reasonerOf = ({ ports }: AccountScope): Reasoner => ports.reasoner(defaultReasoner);
