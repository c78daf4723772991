import type { FunctionDeclaration } from '#lib/ports/need.ts';
import { reasoning } from '#lib/ports/reasoner/reasoner-need.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';

/** The analysis stages read the workspace's evidence, reason over it and write their results. */
export const analysisWorker: FunctionDeclaration = {
  name: 'analysis-worker',
  description: 'Runs one stage of the incident analysis workflow',
  needs: [tableReadWrite, reasoning],
};
