// The operator policy decided per tool (a table like a trust-gating host's), its settings, the risk derivation, the
// confirmation rule and the meta-tool annotations it yields.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ToolAnnotations } from '../../../src/runtime/shared/contracts.js';
import {
  confirmRuns,
  createPolicyView,
  decideTool,
  matchesPattern,
  metaToolAnnotations,
  needsConfirmation,
  policyDefaultsProblems,
  readPolicySettings,
  riskOf,
  type ConfirmationChannel,
  type OperatorPolicy,
} from '../../../src/runtime/policy/index.js';
import { BILLING_MANIFESTS } from '../../fixtures/billing-catalogue.js';
import { captureLog, servedTool, testNames } from '../core-fixtures.js';
import { toolList } from '../../../src/runtime/catalogue/slug-index.js';

const tools = BILLING_MANIFESTS.map((m) => servedTool(m));
const bySlug = (slug: string) => tools.find((tool) => tool.slug === slug)!;

test('patterns: * is any run, ? one character, the rest literal and whole', () => {
  const table: Array<[string, string, boolean]> = [
    ['refund-*', 'refund-payment', true],
    ['refund-*', 'refund-', true],
    ['refund-*', 'xrefund-payment', false],
    ['delete_?', 'delete_a', true],
    ['delete_?', 'delete_ab', false],
    ['*', 'anything at all', true],
    ['get.invoice', 'get-invoice', false],
    ['a+b', 'a+b', true],
    ['a+b', 'aab', false],
    ['Refund-*', 'refund-payment', false],
  ];
  for (const [pattern, name, expected] of table) assert.equal(matchesPattern(pattern, name), expected, `${pattern} ~ ${name}`);
});

test('risk from annotations: read < low < medium < high', () => {
  const table: Array<[ToolAnnotations | undefined, string]> = [
    [{ readOnlyHint: true }, 'read'],
    [{ readOnlyHint: true, destructiveHint: true }, 'read'],
    [{ destructiveHint: true }, 'high'],
    [{ readOnlyHint: false, destructiveHint: false }, 'low'],
    [{ idempotentHint: true }, 'medium'],
    [undefined, 'medium'],
  ];
  for (const [annotations, risk] of table) assert.equal(riskOf(annotations), risk, JSON.stringify(annotations));
});

test("a policy table like a trust-gating host's: deny wins, an allow list alone is a whitelist, the ceiling cuts by risk", () => {
  const cases: Array<{ policy: Partial<OperatorPolicy>; allowed: string[] }> = [
    { policy: {}, allowed: tools.map((t) => t.slug) },
    {
      policy: { deny: ['refund-*'] },
      allowed: ['get-invoice', 'list-invoices', 'search-customers', 'create-invoice', 'send-reminder', 'void-invoice', 'delete-customer'],
    },
    { policy: { allow: ['*-invoice*'] }, allowed: ['get-invoice', 'list-invoices', 'create-invoice', 'void-invoice'] },
    { policy: { allow: ['*-invoice*'], deny: ['void-*'] }, allowed: ['get-invoice', 'list-invoices', 'create-invoice'] },
    { policy: { maxRisk: 'medium' }, allowed: ['get-invoice', 'list-invoices', 'search-customers', 'create-invoice', 'send-reminder'] },
    { policy: { maxRisk: 'low' }, allowed: ['get-invoice', 'list-invoices', 'search-customers', 'create-invoice'] },
    { policy: { maxRisk: 'critical' }, allowed: tools.map((t) => t.slug) },
    { policy: { allow: ['category:payments'] }, allowed: ['refund-payment', 'refund-partial'] },
    {
      policy: { deny: ['tag:gdpr', 'category:pay*'] },
      allowed: ['get-invoice', 'list-invoices', 'search-customers', 'create-invoice', 'send-reminder', 'void-invoice'],
    },
    { policy: { allow: ['tag:invoices'], maxRisk: 'read' }, allowed: ['get-invoice', 'list-invoices'] },
  ];
  for (const { policy, allowed } of cases) {
    const full: OperatorPolicy = { allow: [], deny: [], maxRisk: null, ...policy };
    assert.deepEqual(
      tools.filter((tool) => decideTool(full, tool).allowed).map((t) => t.slug),
      allowed,
      JSON.stringify(policy),
    );
    assert.deepEqual(
      createPolicyView(full)
        .allowed(toolList(tools))
        .tools.map((t) => t.slug),
      allowed,
      JSON.stringify(policy),
    );
  }
  const ceiling = decideTool({ allow: [], deny: [], maxRisk: 'medium' }, bySlug('delete-customer'));
  assert.deepEqual(ceiling, { allowed: false, reason: 'its risk "high" (from its annotations) is above the ceiling "medium"' });
});

test('the view refuses a tool outside the policy by its name or only prefix, and nothing else', () => {
  const view = createPolicyView({ allow: [], deny: ['refund-*'], maxRisk: null });
  const list = toolList(tools);
  assert.equal(view.refusal(list, 'refund-payment')?.code, 'TOOL_NOT_ALLOWED');
  assert.equal(view.refusal(list, 'refund-pay')?.details?.slug, 'refund-payment');
  assert.equal(view.refusal(list, 'refund-'), null, 'two tools: not one to name');
  assert.equal(view.refusal(list, 'nothing-like-it'), null);
  assert.equal(view.refusal(list, 'get-invoice'), null);
  assert.equal(view.refusedCount(list), 2);
  const open = createPolicyView({ allow: [], deny: [], maxRisk: null });
  assert.equal(open.allowed(list), list, 'an open policy keeps the very list (its prebuilt search index applies)');
});

test("settings: the build's defaults, each replaced by its variable; a bad ceiling is the strictest", () => {
  const defaults = { deny: ['refund-*'], maxRisk: 'high' as const, confirm: 'unless-safe' as const, surface: 'split' as const };
  const { log, lines } = captureLog();
  const built = readPolicySettings(testNames, {}, log, defaults);
  assert.deepEqual(
    [built.policy, built.confirm, built.surface],
    [{ allow: [], deny: ['refund-*'], maxRisk: 'high' }, 'unless-safe', 'split'],
  );
  const env = {
    NEXUSBLOOM_MCP_ALLOW: 'get-*, tag:invoices',
    NEXUSBLOOM_MCP_DENY: '-',
    NEXUSBLOOM_MCP_MAX_RISK: 'LOW',
    NEXUSBLOOM_MCP_CONFIRM: 'off',
    NEXUSBLOOM_MCP_SURFACE: 'single',
  };
  const overridden = readPolicySettings(testNames, env, log, defaults);
  assert.deepEqual(
    [overridden.policy, overridden.confirm, overridden.surface],
    [{ allow: ['get-*', 'tag:invoices'], deny: [], maxRisk: 'low' }, 'off', 'single'],
  );
  assert.deepEqual(lines, []);
  const bad = readPolicySettings(testNames, { NEXUSBLOOM_MCP_MAX_RISK: 'mediun', NEXUSBLOOM_MCP_CONFIRM: 'never' }, log, defaults);
  assert.equal(bad.policy.maxRisk, 'read');
  assert.equal(bad.confirm, 'unless-safe');
  assert.match(lines.join('\n'), /NEXUSBLOOM_MCP_MAX_RISK="mediun" is not one of read, low, medium, high, critical; using read/);
  assert.match(lines.join('\n'), /NEXUSBLOOM_MCP_CONFIRM="never" is not one of declared, unless-safe, off/);
  assert.deepEqual(policyDefaultsProblems({ deny: 'refund-*', maxRisk: 'extreme', surface: 'split', extra: 1 }), [
    'policy.deny must be an array of non-empty strings (patterns with * and ?, or category:… / tag:…)',
    'policy.maxRisk must be one of read, low, medium, high, critical',
    'policy has unknown option "extra" (known: allow, deny, maxRisk, confirm, surface)',
  ]);
});

test('confirmation: declared destructive by default, every tool not declared safe when widened, none when off', () => {
  const needing = (mode: 'declared' | 'unless-safe' | 'off') => tools.filter((tool) => needsConfirmation(tool, mode)).map((t) => t.slug);
  assert.deepEqual(needing('declared'), ['refund-payment', 'refund-partial', 'void-invoice', 'delete-customer']);
  assert.deepEqual(needing('unless-safe'), ['send-reminder', 'refund-payment', 'refund-partial', 'void-invoice', 'delete-customer']);
  assert.deepEqual(needing('off'), []);
});

test('confirmRuns asks one question for every run that needs it, through whichever channel is plugged in', async () => {
  const questions: string[] = [];
  const channel = (outcome: 'confirmed' | 'declined'): ConfirmationChannel => ({
    name: 'test',
    ask: async (question) => {
      questions.push(question.message);
      return outcome === 'confirmed' ? { outcome } : { outcome, why: 'the user declined' };
    },
  });
  const runs = [
    { tool: bySlug('get-invoice'), params: {} },
    { tool: bySlug('void-invoice'), params: { id: 'i1', password: 'hunter2' } },
  ];
  const ctx = { names: testNames, mode: 'declared' as const, confirmVar: 'NEXUSBLOOM_MCP_CONFIRM' };
  assert.equal(await confirmRuns({ ...ctx, channel: channel('confirmed') }, runs, new AbortController().signal), null);
  assert.equal(questions.length, 1);
  assert.match(questions[0] ?? '', /void-invoice \(Void Invoice\) with \{"id":"i1","password":"\[redacted\]"\}/);
  assert.equal(
    (await confirmRuns({ ...ctx, channel: channel('declined') }, runs, new AbortController().signal))?.code,
    'CONFIRMATION_DECLINED',
  );
  const required = await confirmRuns({ ...ctx, channel: undefined }, runs, new AbortController().signal);
  assert.equal(required?.code, 'CONFIRMATION_REQUIRED');
  assert.deepEqual(required?.details?.call_directly, ['void-invoice']);
  assert.equal(
    await confirmRuns({ ...ctx, channel: undefined }, [runs[0]!], new AbortController().signal),
    null,
    'read-only runs need no one',
  );
});

test('meta-tool annotations follow what it can reach', () => {
  const read = tools.filter((tool) => tool.manifest.annotations?.readOnlyHint === true);
  assert.deepEqual(metaToolAnnotations('t', { runnable: read }), {
    title: 't',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  });
  assert.deepEqual(metaToolAnnotations('t', { runnable: [...read, bySlug('create-invoice')] }), {
    title: 't',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  });
  assert.equal(
    metaToolAnnotations('t', { runnable: [...read, bySlug('send-reminder')] }).destructiveHint,
    true,
    'undeclared reads as the spec default',
  );
  assert.equal(metaToolAnnotations('t', { runnable: [] }).readOnlyHint, true);
});
