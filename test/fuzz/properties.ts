/**
 * The property suites, parameterised by the number of runs: `npm test` runs a few hundred
 * inputs (test/unit/robustness.test.ts), `npm run fuzz` runs 100,000 (test/fuzz/*.test.ts).
 * A counterexample is replayed with its seed and path (`replay`), as the fuzz run prints them.
 */
import fc from 'fast-check';
import { mutatedJson, mutatedYaml } from './mutators';
import { checkInvariants, fixtureTexts, instantOracle, unknownOracle } from './harness';

const FIXTURE_DIRS = ['test/fixtures', 'examples'];

/** The three properties by name, each built over the current fixture corpus. */
export const PROPERTIES = {
  json: () =>
    fc.property(mutatedJson(fixtureTexts(FIXTURE_DIRS, ['.json']).map((f) => f.text)), fc.boolean(), (text, known) => {
      checkInvariants(text, 'config.json', known ? instantOracle : unknownOracle);
    }),
  yaml: () =>
    fc.property(mutatedYaml(fixtureTexts(FIXTURE_DIRS, ['.yaml', '.yml']).map((f) => f.text)), fc.boolean(), (text, known) => {
      checkInvariants(text, 'train.yaml', known ? instantOracle : unknownOracle);
    }),
  text: () =>
    fc.property(fc.string({ maxLength: 400 }), fc.constantFrom('config.json', 'x.yaml'), (text, name) => {
      checkInvariants(text, name);
    }),
};

/** The JSON property's input at a seed and path (to check that a replay still reaches the recorded counterexample). */
export function jsonInputAt(seed: number, path: string): string {
  const jsonSeeds = fixtureTexts(FIXTURE_DIRS, ['.json']).map((f) => f.text);
  return fc.sample(fc.tuple(mutatedJson(jsonSeeds), fc.boolean()), { seed, path, numRuns: 1 })[0][0];
}

/** Runs one property on the single input at `seed` and `path` (a counterexample the fuzz run reported). */
export function replay<Ts extends unknown[]>(property: fc.IProperty<Ts>, seed: number, path: string): void {
  fc.assert(property, { seed, path, numRuns: 1 });
}

export function serviceProperties(runs: number, seed?: number): void {
  const params = { numRuns: runs, seed, endOnFailure: true };

  it(`mutated real JSON configs never break the service (${runs} inputs)`, function () {
    this.timeout(0);
    fc.assert(PROPERTIES.json(), params);
  });

  it(`mutated real training YAML never breaks the service (${runs} inputs)`, function () {
    this.timeout(0);
    fc.assert(PROPERTIES.yaml(), params);
  });

  it(`arbitrary text never breaks the service (${Math.ceil(runs / 4)} inputs)`, function () {
    this.timeout(0);
    fc.assert(PROPERTIES.text(), { ...params, numRuns: Math.ceil(runs / 4) });
  });
}
