import fc from 'fast-check';
import { expect } from 'vitest';

// Property tests with seeds a failure can be replayed from: every property runs a fixed set of
// seeds (the same cases on every machine, so CI never depends on luck, and a seed that once found
// a failure stays among them) plus one random seed, and each run prints its seed. FC_SEED=<n>
// replaces the random seed, to replay a failure that a random run found.

/** Seeds every property runs with, on every machine. */
export const FIXED_SEEDS: readonly number[] = [20260101, 424242];

function randomSeed(): number {
  const given = Number(process.env.FC_SEED);
  return Number.isSafeInteger(given) ? given : (Math.random() * 0x7fffffff) | 0;
}

type AnyProperty<Ts> = fc.IProperty<Ts> | fc.IAsyncProperty<Ts>;

/**
 * fc.assert over the `seeds` given (seeds that once found a failure: each with the full numRuns, so
 * it reaches the same case again), then `FIXED_SEEDS` and one random seed sharing numRuns (the
 * test costs what it did with one seed). The seed of each run is printed, and a failure's message
 * names its seed and path.
 */
export async function assertProperty<Ts>(
  property: AnyProperty<Ts>,
  params: Omit<fc.Parameters<Ts>, 'seed'> = {},
  seeds: readonly number[] = [],
): Promise<void> {
  const name = expect.getState().currentTestName ?? 'property';
  const shared = [...FIXED_SEEDS, randomSeed()];
  const share = Math.max(1, Math.ceil((params.numRuns ?? 100) / shared.length));
  const runs: [number, number | undefined][] = [
    ...seeds.map((seed): [number, number | undefined] => [seed, params.numRuns]),
    ...shared.map((seed): [number, number | undefined] => [seed, share]),
  ];
  for (const [seed, numRuns] of runs) {
    console.info(`property "${name}": seed ${seed}, ${numRuns ?? 100} runs`);
    try {
      await fc.assert(property as fc.IAsyncProperty<Ts>, { ...params, seed, numRuns });
    } catch (err) {
      console.error(`property "${name}" failed with seed ${seed} (replay: FC_SEED=${seed})`);
      throw err;
    }
  }
}
