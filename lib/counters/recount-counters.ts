import { recountBlastReports } from '#lib/blast-radius/recount-blast-reports.ts';
import { ANALYSIS_COUNTER } from '#lib/incidents/analysis-item.ts';
import { analysisPartition } from '#lib/incidents/analysis-item.ts';
import { CHANGE_COUNTER } from '#lib/changes/change-counter.ts';
import { changePartition } from '#lib/changes/change-repository.ts';
import { INCIDENT_COUNTER } from '#lib/incidents/incident-counter.ts';
import { incidentPartition } from '#lib/incidents/incident-item.ts';
import { log } from '#lib/log/logger.ts';
import { RUN_COUNTER } from '#lib/pipelines/pipeline-run-counter.ts';
import { runPartition } from '#lib/pipelines/pipeline-run-item.ts';
import { type AccountScope, systemScope } from '#lib/identity/scope.ts';
import { executionRepository } from '#lib/playbooks/execution-repository.ts';
import { PLAYBOOK_COUNTER } from '#lib/playbooks/playbook-counter.ts';
import { headPartition as playbookPartition } from '#lib/playbooks/playbook-repository.ts';
import { PROBLEM_COUNTER } from '#lib/problems/problem-counter.ts';
import { recountList } from '#lib/store/list-counters.ts';
import { problemPartition } from '#lib/problems/problem-repository.ts';
import { signalCounterRepository } from '#lib/signals/signal-counter-repository.ts';
import { historyRepository } from '#lib/tickets/history-repository.ts';
import { directoryWorkspaceIds } from '#lib/workspaces/workspace-repository.ts';

export interface RecountResult {
  workspaces: number;
  signals: number;
  incidents: number;
  problems: number;
  changes: number;
  runs: number;
  historyEvents: number;
  playbooks: number;
  executions: number;
  blastReports: number;
  analyses: number;
}

/**
 * The counter recount (docs/data-model.md 6): every workspace's list counters recomputed from the items
 * they count. Counters are ADDed right after their item's write, so a crash in between leaves them off by
 * one; this puts them right. One workspace failing does not stop the others.
 */
export const recountCounters = async ({ ports }: AccountScope): Promise<RecountResult> => {
  const { table } = ports;
  const result: RecountResult = {
    workspaces: 0,
    signals: 0,
    incidents: 0,
    problems: 0,
    changes: 0,
    runs: 0,
    historyEvents: 0,
    playbooks: 0,
    executions: 0,
    blastReports: 0,
    analyses: 0,
  };
  for (const workspaceId of await directoryWorkspaceIds(table)) {
    try {
      const [
        signals,
        incidents,
        problems,
        changes,
        runs,
        historyEvents,
        playbooks,
        executions,
        blastReports,
        analyses,
      ] = await Promise.all([
        signalCounterRepository(table, workspaceId).recountSignals(),
        recountList(table, workspaceId, INCIDENT_COUNTER, incidentPartition(workspaceId)),
        recountList(table, workspaceId, PROBLEM_COUNTER, problemPartition(workspaceId)),
        recountList(table, workspaceId, CHANGE_COUNTER, changePartition(workspaceId)),
        recountList(table, workspaceId, RUN_COUNTER, runPartition(workspaceId)),
        historyRepository(table, workspaceId).recountHistory(),
        recountList(table, workspaceId, PLAYBOOK_COUNTER, playbookPartition(workspaceId)),
        executionRepository(table, workspaceId).recountExecutions(),
        recountBlastReports(systemScope(workspaceId, ports)),
        recountList(table, workspaceId, ANALYSIS_COUNTER, analysisPartition(workspaceId)),
      ]);
      result.workspaces += 1;
      result.signals += signals;
      result.incidents += incidents;
      result.problems += problems;
      result.changes += changes;
      result.runs += runs;
      result.historyEvents += historyEvents;
      result.playbooks += playbooks;
      result.executions += executions;
      result.blastReports += blastReports;
      result.analyses += analyses;
    } catch (error) {
      log.error('counter recount failed for a workspace', { workspaceId, error });
    }
  }
  return result;
};
