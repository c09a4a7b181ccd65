/** Settings and command ids are defined once (shared/protocol) and agree with package.json. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DEFAULT_SETTINGS,
  normalizeSettings,
  SETTING_KEYS,
  SETTING_VALUES,
  SETTINGS_SECTION,
  VALIDATION_DELAY,
  type NormalizeProblem,
} from '../../shared/protocol/settings';
import { COMMANDS, CONTRIBUTED_COMMANDS } from '../../shared/protocol/commands';

const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
const props = pkg.contributes.configuration.properties as Record<
  string,
  { type: string; default: unknown; enum?: string[]; additionalProperties?: { enum?: string[] }; minimum?: number; maximum?: number }
>;

describe('settings module against package.json', () => {
  it('the same keys on both sides', () => {
    assert.deepEqual(
      Object.keys(props).sort(),
      Object.keys(SETTING_VALUES)
        .map((k) => `${SETTINGS_SECTION}.${k}`)
        .sort(),
    );
    assert.deepEqual(Object.values(SETTING_KEYS).sort(), Object.keys(SETTING_VALUES).sort());
  });

  it('the same accepted values and defaults', () => {
    for (const [field, key] of Object.entries(SETTING_KEYS) as [keyof typeof DEFAULT_SETTINGS, keyof typeof SETTING_VALUES][]) {
      const p = props[`${SETTINGS_SECTION}.${key}`];
      const values = SETTING_VALUES[key] as readonly string[] | undefined;
      const declared = p.enum ?? p.additionalProperties?.enum;
      assert.deepEqual(declared, values ? [...values] : undefined, `${key}: enum`);
      assert.deepEqual(p.default, DEFAULT_SETTINGS[field], `${key}: default`);
    }
    const delay = props[`${SETTINGS_SECTION}.validation.delay`];
    assert.deepEqual([delay.minimum, delay.maximum], [VALIDATION_DELAY.min, VALIDATION_DELAY.max]);
  });

  it('every contributed command is defined once in shared/protocol/commands', () => {
    const contributed = (pkg.contributes.commands as { command: string }[]).map((c) => c.command).sort();
    assert.deepEqual(contributed, [...CONTRIBUTED_COMMANDS].sort());
    assert.ok(Object.values(COMMANDS).every((c) => c.startsWith(`${SETTINGS_SECTION}.`)));
  });
});

describe('settings normalisation', () => {
  it('nested objects (workspace/configuration) and flat dotted keys read the same', () => {
    const nested = normalizeSettings({ bound: { backend: 'cpu' }, validation: { delay: 40 }, transformersVersion: 'v4' });
    const flat = normalizeSettings({ 'bound.backend': 'cpu', 'validation.delay': 40, transformersVersion: 'v4' });
    assert.deepEqual(nested, flat);
    assert.equal(nested.boundBackend, 'cpu');
    assert.equal(nested.validationDelay, 40);
    assert.equal(nested.transformersVersion, 'v4');
  });

  it('invalid values keep the default and are reported, valid ones are kept', () => {
    const problems: NormalizeProblem[] = [];
    const s = normalizeSettings(
      {
        enable: 'yes',
        preferredRewrite: 'other',
        hints: 'codeLens',
        validation: { delay: 99999 },
        severity: { 'rope-base-too-small': 'off', x: 'fatal' },
        transformersVersion: 'v6',
      },
      problems,
    );
    assert.equal(s.enable, true);
    assert.equal(s.preferredRewrite, 'auto', "'other' is a fix kind, not a setting value");
    assert.equal(s.hints, 'codeLens');
    assert.equal(s.validationDelay, VALIDATION_DELAY.max);
    assert.deepEqual(s.severity, { 'rope-base-too-small': 'off' });
    assert.equal(s.transformersVersion, 'v5');
    assert.deepEqual(
      problems.map((p) => p.key).sort(),
      ['ropeLens.enable', 'ropeLens.preferredRewrite', 'ropeLens.severity', 'ropeLens.transformersVersion'].sort(),
    );
  });

  it('no payload: the defaults', () => {
    assert.deepEqual(normalizeSettings(undefined), DEFAULT_SETTINGS);
    assert.deepEqual(normalizeSettings(null), DEFAULT_SETTINGS);
  });
});
