import type { FunctionDeclaration } from '#lib/ports/need.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';

/** The analysis stages write their results next to the incident. */
export const analysisWorker: FunctionDeclaration = {
  name: 'analysis-worker',
  description: 'Runs one stage of the incident analysis workflow',
  needs: [tableReadWrite],
};
