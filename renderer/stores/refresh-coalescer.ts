/**
 * Runs `task` now, or once more after the running one when asked again meanwhile: a burst of
 * events (a whole outbox draining) costs at most two refreshes, and the last one sees the end.
 */
export function coalesce(task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  const run = async (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await task();
        } while (again);
      } finally {
        running = null;
      }
    })();
    return running;
  };
  return run;
}
