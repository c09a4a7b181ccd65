/**
 * The property suites, parameterised by the number of runs: `npm test` runs a few hundred
 * inputs (test/unit/robustness.test.ts), `npm run fuzz` runs 100,000 (test/fuzz/*.test.ts).
 */
import fc from 'fast-check';
import { mutatedJson, mutatedYaml } from './mutators';
import { checkInvariants, fixtureTexts, instantOracle, unknownOracle } from './harness';

const FIXTURE_DIRS = ['test/fixtures', 'examples'];

export function serviceProperties(runs: number, seed?: number): void {
  const jsonSeeds = fixtureTexts(FIXTURE_DIRS, ['.json']).map((f) => f.text);
  const yamlSeeds = fixtureTexts(FIXTURE_DIRS, ['.yaml', '.yml']).map((f) => f.text);
  const params = { numRuns: runs, seed, endOnFailure: true };

  it(`mutated real JSON configs never break the service (${runs} inputs)`, function () {
    this.timeout(0);
    fc.assert(fc.property(mutatedJson(jsonSeeds), fc.boolean(), (text, known) => {
      checkInvariants(text, 'config.json', known ? instantOracle : unknownOracle);
    }), params);
  });

  it(`mutated real training YAML never breaks the service (${runs} inputs)`, function () {
    this.timeout(0);
    fc.assert(fc.property(mutatedYaml(yamlSeeds), fc.boolean(), (text, known) => {
      checkInvariants(text, 'train.yaml', known ? instantOracle : unknownOracle);
    }), params);
  });

  it(`arbitrary text never breaks the service (${Math.ceil(runs / 4)} inputs)`, function () {
    this.timeout(0);
    fc.assert(fc.property(fc.string({ maxLength: 400 }), fc.constantFrom('config.json', 'x.yaml'), (text, name) => {
      checkInvariants(text, name);
    }), { ...params, numRuns: Math.ceil(runs / 4) });
  });
}
