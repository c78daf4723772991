import { useEffect, useState } from 'preact/hooks';
import { ApiError, get } from '../api.ts';
import type { Analysis, AnalysisState } from '../model.ts';
import { ErrorNote, useLoad } from '../ui.tsx';

/**
 * The first look a second after the start, each wait half as long again as the one before up to the longest
 * (an analysis takes seconds; a stuck one is not asked about every second); past the deadline the page stops.
 */
const FIRST_WAIT_MS = 1_000;
const GROWTH = 1.5;
const LONGEST_WAIT_MS = 10_000;
const GIVE_UP_AFTER_MS = 3 * 60_000;

/**
 * Asks for the analysis's state with a growing wait until it is no longer PROCESSING, then tells `onEnd`
 * (undefined: given up). Answers the function that stops it, for a page that is left first.
 */
const followAnalysis = (analysisId: string, onEnd: (state: AnalysisState | undefined) => void): (() => void) => {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = Date.now() + GIVE_UP_AFTER_MS;
  const look = async (wait: number): Promise<void> => {
    let state: AnalysisState | undefined;
    try {
      state = (await get<AnalysisState>(`/assistant/analyses/${encodeURIComponent(analysisId)}`)).data;
    } catch {
      // A failed look is tried again at the next wait, as a slow network deserves; the deadline still holds.
    }
    if (stopped) return;
    if (state && state.status !== 'PROCESSING') onEnd(state);
    else if (Date.now() + wait > deadline) onEnd(undefined);
    else timer = setTimeout(() => void look(Math.min(wait * GROWTH, LONGEST_WAIT_MS)), wait);
  };
  timer = setTimeout(() => void look(FIRST_WAIT_MS * GROWTH), FIRST_WAIT_MS);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
};

const latestOf = async (incidentId: string): Promise<Analysis | null> => {
  try {
    return (await get<Analysis>(`/assistant/analysis/${encodeURIComponent(incidentId)}`)).data;
  } catch (error) {
    // 404: none has completed yet; 403: the caller's key may not read analyses.
    if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return null;
    throw error;
  }
};

/**
 * The incident's latest completed analysis; while one the page started runs, its progress, and the result
 * as soon as it lands (docs/console.md).
 */
export const AnalysisSection = ({ incidentId, started }: { incidentId: string; started: string | undefined }) => {
  const latest = useLoad(() => latestOf(incidentId), incidentId);
  const [note, setNote] = useState('');
  useEffect(() => {
    if (!started) return;
    setNote('Analysing…');
    return followAnalysis(started, (state) => {
      if (state?.status === 'COMPLETE') {
        setNote('');
        latest.reload();
      } else if (state?.status === 'FAILED')
        setNote(`The analysis failed: ${state.failureReason ?? 'no reason given'}.`);
      else setNote('The analysis is taking long: reload the page later to see it.');
    });
  }, [started]);
  return (
    <>
      {note && <p class="info">{note}</p>}
      <ErrorNote error={latest.error} />
      {latest.value ? (
        <AnalysisView analysis={latest.value} />
      ) : (
        latest.value === null && <p>No completed analysis yet.</p>
      )}
    </>
  );
};

const AnalysisView = ({ analysis }: { analysis: Analysis }) => (
  <div class="analysis">
    <p>
      <strong>Hypothesis:</strong> {analysis.hypothesis}
    </p>
    <p>
      <strong>Root cause:</strong> {analysis.rootCause}
    </p>
    {analysis.impactAssessment && (
      <p>
        <strong>Impact:</strong> {analysis.impactAssessment}
      </p>
    )}
    {analysis.confidence !== null && <p>Confidence {Math.round(analysis.confidence * 100)}%</p>}
    {analysis.remediationOptions.length > 0 && (
      <>
        <h3>Remediation</h3>
        <ol>
          {analysis.remediationOptions.map((option) => (
            <li key={option}>{option}</li>
          ))}
        </ol>
      </>
    )}
    <h3>Evidence</h3>
    {analysis.evidence.length === 0 ? (
      <p>The analysis found no evidence.</p>
    ) : (
      <ul class="evidence">
        {analysis.evidence.map((item) => (
          <li key={item.id}>
            <span class="badge">{item.kind.replaceAll('_', ' ')}</span> {item.summary}
            {item.service && <span class="note"> ({item.service})</span>}
          </li>
        ))}
      </ul>
    )}
  </div>
);
