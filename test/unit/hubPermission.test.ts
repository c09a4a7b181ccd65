import { strict as assert } from 'node:assert';
import { hubDecision } from '../../shared/protocol/hubPermission';

describe('Hub permission in the editor (ropeLens.hub.allowNetwork)', () => {
  it('an untrusted workspace is denied whatever the setting or an earlier answer', () => {
    for (const mode of ['ask', 'always', 'never'] as const) {
      for (const remembered of [undefined, 'allow', 'never'] as const) {
        assert.equal(hubDecision({ trusted: false, mode, remembered }), 'deny', `${mode}/${remembered}`);
      }
    }
  });

  it('trusted: never denies, always allows, ask prompts once and then follows the remembered answer', () => {
    assert.equal(hubDecision({ trusted: true, mode: 'never', remembered: 'allow' }), 'deny');
    assert.equal(hubDecision({ trusted: true, mode: 'always', remembered: 'never' }), 'allow');
    assert.equal(hubDecision({ trusted: true, mode: 'ask' }), 'ask');
    assert.equal(hubDecision({ trusted: true, mode: 'ask', remembered: 'allow' }), 'allow');
    assert.equal(hubDecision({ trusted: true, mode: 'ask', remembered: 'never' }), 'deny');
  });
});
