import type { SearchHit } from '../../shared/ipc/catalog.ts';

/**
 * The hits of a new answer, each one that is identical to a hit already shown replaced by that
 * object: as staff type a word, the next letter mostly finds the same products, and a row whose
 * hit is the same object is not rendered again (ProductRow is memoised).
 */
export function keepUnchangedHits(
  shown: readonly SearchHit[],
  answer: readonly SearchHit[],
): SearchHit[] {
  if (shown.length === 0) return [...answer];
  const byId = new Map(shown.map((hit) => [hit.uuid, hit]));
  return answer.map((hit) => {
    const before = byId.get(hit.uuid);
    // Both come from the same schema, so their keys are in the same order.
    return before !== undefined && JSON.stringify(before) === JSON.stringify(hit) ? before : hit;
  });
}
