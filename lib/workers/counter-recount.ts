import type { FunctionDeclaration } from '#lib/ports/need.ts';
import { tableReadWrite } from '#lib/ports/table/table-needs.ts';

export const counterRecount: FunctionDeclaration = {
  name: 'counter-recount',
  description: 'Recomputes the list counters from the items they count',
  needs: [tableReadWrite],
};
