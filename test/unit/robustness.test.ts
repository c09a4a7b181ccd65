import { serviceProperties } from '../fuzz/properties';

describe('robustness: property tests over mutated real configs (fast run)', () => {
  serviceProperties(300);
});
