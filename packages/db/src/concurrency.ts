/**
 * At most `slots` of a kind of task at once: the returned function runs a task when a slot is free, else once the
 * tasks before it have had theirs (first come, first served); a finished task hands its slot straight to the next.
 */
export function concurrencyLimit(slots: number): <T>(task: () => Promise<T>) => Promise<T> {
  let busy = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (busy < slots) busy++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else busy--;
    }
  };
}
