/**
 * TF-IDF cosine similarity, the similar-incidents check's measure: words that many incidents share
 * ("error", "service") weigh little, the rare ones they have in common ("checkout", "timeout") much.
 */
const STOP_WORDS = new Set(
  'the and for with from that this was were are has have had not but its into after before when then than over under our their there they them which while will would could should been being about also'.split(
    ' ',
  ),
);

const tokens = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length >= 3 && !STOP_WORDS.has(word));

type Vector = Map<string, number>;

const termFrequencies = (words: string[]): Vector => {
  const counts: Vector = new Map();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  for (const [word, count] of counts) counts.set(word, count / words.length);
  return counts;
};

const cosine = (a: Vector, b: Vector): number => {
  let dot = 0;
  for (const [word, weight] of a) dot += weight * (b.get(word) ?? 0);
  const norm = (vector: Vector) => Math.sqrt([...vector.values()].reduce((sum, weight) => sum + weight * weight, 0));
  const denominator = norm(a) * norm(b);
  return denominator === 0 ? 0 : dot / denominator;
};

/** The similarity (0-1) of `query` to each document, weighted over the corpus of all of them and the query. */
export const tfIdfSimilarities = (query: string, documents: readonly string[]): number[] => {
  const corpus = [query, ...documents].map(tokens);
  const documentFrequency = new Map<string, number>();
  for (const words of corpus)
    for (const word of new Set(words)) documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
  const idf = (word: string) => Math.log((corpus.length + 1) / ((documentFrequency.get(word) ?? 0) + 1)) + 1;
  const weighted = corpus.map((words) => {
    const vector = termFrequencies(words);
    for (const [word, tf] of vector) vector.set(word, tf * idf(word));
    return vector;
  });
  const [queryVector, ...documentVectors] = weighted;
  return documentVectors.map((vector) => (queryVector ? cosine(queryVector, vector) : 0));
};
