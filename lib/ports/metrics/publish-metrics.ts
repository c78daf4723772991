import type { FunctionDeclaration } from '../need.ts';
import { declaresPort } from '../port-set.ts';
import type { Ports } from '../ports.ts';

/** The end of an invocation: what the function's services counted goes out in one EMF document. */
export const publishMetrics = (declaration: FunctionDeclaration, ports: Ports): void => {
  if (declaresPort(declaration, 'metrics')) ports.metrics.flush();
};
