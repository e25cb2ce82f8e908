// File names the plan derives from hostile slugs: bounded in length, never a Windows device name.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkCatalogue } from '../../src/pipeline/check/check-in-thread.js';
import { baseNames, isWindowsDeviceName, MAX_FILE_STEM } from '../../src/pipeline/plan/naming.js';
import { planPackage } from '../../src/pipeline/plan/plan-package.js';
import { bundle, tool } from '../fixtures/catalogues.js';

describe('plan: file names', () => {
  it('a slug of 300 characters gets a bounded file name and identifier, distinct from its near twin', () => {
    const long = 'a'.repeat(299);
    const plan = planPackage(checkCatalogue(bundle([tool(`${long}b`), tool(`${long}c`), tool(`word-${'x'.repeat(250)}-end`)])).tools);
    for (const planned of plan.tools) {
      assert.ok(planned.fileName.length <= MAX_FILE_STEM + 12, planned.fileName);
      assert.ok(planned.identifier.length <= MAX_FILE_STEM + 12, planned.identifier);
    }
    assert.equal(new Set(plan.tools.map((t) => t.fileName)).size, 3);
    assert.equal(new Set(plan.tools.map((t) => t.identifier)).size, 3);
    // The same slug always gets the same name.
    assert.deepEqual(baseNames(`${long}b`), baseNames(`${long}b`));
  });

  const devices = [
    'con',
    'PRN',
    'Aux',
    'nul',
    ...Array.from({ length: 10 }, (_, i) => `com${i}`),
    ...Array.from({ length: 10 }, (_, i) => `LPT${i}`),
    'com¹',
    'COM²',
    'lpt³',
  ];
  for (const slug of devices) {
    it(`${slug} is never a file name`, () => {
      const { fileName } = baseNames(slug);
      assert.equal(isWindowsDeviceName(fileName), false, fileName);
      assert.match(fileName, /^tool-/);
    });
  }

  it('device names are recognised in any case, with or without an extension', () => {
    for (const name of ['nul.ts', 'COM¹.d.ts', 'lpt9', 'Com0.js.map', 'aux.json']) assert.equal(isWindowsDeviceName(name), true, name);
    for (const name of ['console', 'com10', 'lpt', 'tool-com1', 'auxiliary.ts']) assert.equal(isWindowsDeviceName(name), false, name);
  });
});
