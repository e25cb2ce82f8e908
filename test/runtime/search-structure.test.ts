// The ranking's reading of a query's structure, each on a small catalogue where it decides the first hit: the context
// after a preposition ("… to a release"), a leading verb the action words lack ("scale my deployment"), a word found
// only among input fields, a query about many, and the head noun of a name that only counts ("Get a list of group
// issues"). Each case also runs with its lever off, so the test shows that lever is what decides.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Manifest, ServedTool } from '../../src/runtime/shared/contracts.js';
import { buildSearchIndex, term } from '../../src/runtime/search/index.js';
import { decodeSearchIndex } from '../../src/runtime/search/scoring-index.js';
import { createToolSearch } from '../../src/runtime/search/tool-search.js';
import { SHIPPED_LEVERS, type RankingLevers } from '../../src/runtime/search/levers.js';

const tool = (slug: string, name: string, description: string, readOnly: boolean): ServedTool => {
  const manifest = {
    slug,
    name,
    description,
    category: '',
    tags: [],
    version: '1.0.0',
    input_schema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: readOnly, destructiveHint: false },
  } as unknown as Manifest;
  return { slug, manifest, identifier: slug, withheldReason: null };
};

/** A tool that takes the given input fields (name → description), destructive or not. */
const toolTaking = (slug: string, name: string, description: string, inputs: Record<string, string>, destructive: boolean): ServedTool => {
  const base = tool(slug, name, description, false);
  const properties = Object.fromEntries(Object.entries(inputs).map(([field, text]) => [field, { type: 'string', description: text }]));
  const manifest = {
    ...base.manifest,
    input_schema: { type: 'object', properties },
    annotations: { readOnlyHint: false, destructiveHint: destructive },
  } as unknown as Manifest;
  return { ...base, manifest };
};

const first = (tools: ServedTool[], query: string, levers: RankingLevers): string | undefined =>
  createToolSearch(
    () => tools,
    () => buildSearchIndex(tools),
    levers,
  ).search(query, 5)[0]?.slug;

interface Case {
  rule: string;
  tools: ServedTool[];
  query: string;
  want: string;
  /** The levers that switch the rule off, and the first hit without it. */
  off: Partial<RankingLevers>;
  wantOff: string;
}

const CASES: Case[] = [
  {
    rule: 'a head noun the query names only after a preposition is the context, not the object',
    tools: [
      tool('repoCreateRelease', 'Create a release', 'Create a release, to which binaries are uploaded', false),
      tool('repoCreateReleaseAsset', 'Create a release asset', 'Create an asset of a release: a binary file uploaded to it', false),
    ],
    query: 'upload a binary to a release',
    want: 'repoCreateReleaseAsset',
    off: { contextHead: 1 },
    wantOff: 'repoCreateRelease',
  },
  {
    rule: 'a leading verb the action words lack asks to do something, not to look',
    tools: [
      // Without the rule the two score the same, and the slug decides.
      tool('getDeploymentScale', 'Get deployment scale', 'read the scale of the specified deployment', true),
      tool('patchDeploymentScale', 'Patch deployment scale', 'partially update the scale of the specified deployment', false),
    ],
    query: 'scale my deployment to five replicas',
    want: 'patchDeploymentScale',
    off: { otherVerbReads: 1 },
    wantOff: 'getDeploymentScale',
  },
  {
    rule: 'a word found only among input fields covers the query less than one in what the tool is',
    tools: [
      toolTaking(
        'repoCreateBranchProtection',
        'Create a branch protection for a repository',
        'Create a branch protection for a repository',
        { rule_name: 'Name of the protection rule', required_approvals: 'Approvals needed before merging' },
        false,
      ),
      toolTaking(
        'repoDeleteBranchProtection',
        'Delete a specific branch protection',
        'Delete a specific branch protection for the repository',
        { name: 'Name' },
        true,
      ),
      // Other tools of the catalogue, which make "rule" the query's rarest word.
      tool('repoGetBranchProtection', 'Get a branch protection', 'Get a specific branch protection', true),
      tool('repoListBranches', 'List branches', 'List the branches of a repository', true),
      tool('repoGetBranch', 'Get a branch', 'Get a branch of a repository, with its protection', true),
      toolTaking('repoDeleteBranch', 'Delete a branch', 'Delete a branch of a repository', {}, true),
      tool('repoListTags', 'List tags', 'List the tags of a repository', true),
      tool('repoListReleases', 'List releases', 'List the releases of a repository', true),
      tool('repoGetRepository', 'Get a repository', 'Get a repository', true),
      tool('repoCreateRelease', 'Create a release', 'Create a release of a repository', false),
    ],
    query: 'delete a branch protection rule',
    want: 'repoDeleteBranchProtection',
    off: { inputFieldCoverage: 1 },
    wantOff: 'repoCreateBranchProtection',
  },
  {
    rule: 'a query about many favours the tool that acts on many',
    tools: [
      // Without the rule the two score the same, and the slug decides.
      tool('notifyMarkThreadRead', 'Mark a notification as read', 'Mark a notification as read', false),
      tool('notifyMarkThreadsRead', 'Mark the notifications as read', 'Mark the notifications as read', false),
    ],
    query: 'mark all my notifications as read',
    want: 'notifyMarkThreadsRead',
    off: { manyAgrees: 1 },
    wantOff: 'notifyMarkThreadRead',
  },
  {
    rule: 'a number counts the object, and "in one go" says many',
    tools: [
      tool('addRegistrant', 'Add a registrant', 'Add a registrant to a webinar', false),
      tool('addRegistrants', 'Add multiple registrants', 'Add multiple registrants to a webinar', false),
    ],
    query: 'register 50 people for a webinar in one go',
    want: 'addRegistrants',
    off: { manyAgrees: 1 },
    wantOff: 'addRegistrant',
  },
];

describe('search reads the structure of a query', () => {
  for (const { rule, tools, query, want, off, wantOff } of CASES) {
    it(`${rule}: "${query}"`, () => {
      assert.equal(first(tools, query, SHIPPED_LEVERS), want);
      assert.equal(first(tools, query, { ...SHIPPED_LEVERS, ...off }), wantOff);
    });
  }
});

describe('words reaching one term of a tool', () => {
  const tools = [tool('listIssues', 'List issues', 'List issues', true), tool('listComments', 'List comments', 'List comments', true)];
  const scoreOf = (query: string, levers: RankingLevers): number | undefined =>
    createToolSearch(
      () => tools,
      () => buildSearchIndex(tools),
      levers,
    )
      .search(query, 5)
      .find((hit) => hit.slug === 'listIssues')?.score;

  it('are one match, the rest credited at a share: "bug ticket problem" is not three issues', () => {
    const shipped = scoreOf('bug ticket problem', SHIPPED_LEVERS) as number;
    const off = scoreOf('bug ticket problem', { ...SHIPPED_LEVERS, sharedTermShare: 1 }) as number;
    assert.ok(shipped < off * 0.6, `${shipped} against ${off}`);
  });
});

describe('a verb putting its object into a state', () => {
  const tools = [
    tool('createRepo', 'Create a repository', 'Create a repository', false),
    tool('editRepo', 'Edit a repository', 'Edit a repository', false),
  ];

  it('changes the object: "make a repository private" edits, "make a repository" creates', () => {
    assert.equal(first(tools, 'make a repository private', SHIPPED_LEVERS), 'editRepo');
    assert.equal(first(tools, 'make an old repository read-only', SHIPPED_LEVERS), 'editRepo');
    assert.equal(first(tools, 'make a repository', SHIPPED_LEVERS), 'createRepo');
    // "hidden" is a state here before it is the past form of "hide".
    assert.equal(first(tools, 'make the repository hidden', SHIPPED_LEVERS), 'editRepo');
    assert.equal(first(tools, 'make a repository that only admins see', SHIPPED_LEVERS), 'createRepo');
  });
});

describe('an action word standing as a noun', () => {
  const tools = [
    tool('createIssue', 'Create an issue', 'Create an issue', false),
    tool('listChangedFiles', 'List changed files of a merge', 'List changed files of a merge', true),
  ];

  it('keeps its synonyms of the noun, not of the verb: "file" past the start is no "create"', () => {
    const hit = createToolSearch(
      () => tools,
      () => buildSearchIndex(tools),
    )
      .search('merge changes, file by file', 5)
      .map((found) => found.slug);
    assert.deepEqual(hit, ['listChangedFiles']);
  });
});

describe('a name saying which one of a kind', () => {
  const tools = [
    tool('protectBranch', 'Protect a branch', 'Protect a branch', false),
    tool('addTagProtection', 'Protect a tag', 'Protect a tag', false),
  ];

  it('stands for the kind: "protect main" protects a branch', () => {
    assert.equal(first(tools, 'protect main', SHIPPED_LEVERS), 'protectBranch');
    assert.equal(first(tools, 'protect master', SHIPPED_LEVERS), 'protectBranch');
  });
});

describe('a past form of a verb', () => {
  const tools = [
    tool('assignIssue', 'Assign an issue', 'Assign an issue to someone', false),
    tool('getIssue', 'Get an issue', 'Get an issue by the given id', true),
  ];

  it('in a query is the verb, in a tool\'s text stays as it is: "be given to" asks to give', () => {
    assert.equal(first(tools, 'can this issue be given to someone', SHIPPED_LEVERS), 'assignIssue');
    assert.notEqual(term('given'), term('give'));
  });
});

describe('tools of one head noun', () => {
  const settings = ['', 'shared ', 'default ', 'global '].map((kind, at) =>
    tool(`getTrackingSettings${at}`, `Get ${kind}time tracking settings`, `Get ${kind}time tracking settings`, true),
  );
  const tools = [...settings, tool('getWorklogs', 'Get worklogs', 'Get worklogs: the time tracked on an issue', true)];
  const hits = (levers: RankingLevers): [string, number][] =>
    createToolSearch(
      () => tools,
      () => buildSearchIndex(tools),
      levers,
    )
      .search('time tracking', 5)
      .map((hit) => [hit.slug, hit.score]);

  it('past the third, yield a share of their score: a fourth tracking setting counts less', () => {
    const shipped = hits(SHIPPED_LEVERS);
    const off = hits({ ...SHIPPED_LEVERS, repeatedHead: 1 });
    assert.deepEqual(shipped.slice(0, 3), off.slice(0, 3));
    const fourth = off[3] as [string, number];
    const yielded = shipped.find(([slug]) => slug === fourth[0]) as [string, number];
    assert.ok(Math.abs(yielded[1] - fourth[1] * SHIPPED_LEVERS.repeatedHead) < 0.002, `${yielded[1]} against ${fourth[1]}`);
  });
});

describe('a preposition right after the leading verb', () => {
  const tools = [
    tool('watchRepo', 'Watch a repository', 'Subscribe to a repository', false),
    tool('createRepo', 'Create a repository', 'Create a repository', false),
  ];
  const scoreOf = (query: string): number | undefined =>
    createToolSearch(
      () => tools,
      () => buildSearchIndex(tools),
    )
      .search(query, 5)
      .find((hit) => hit.slug === 'watchRepo')?.score;

  it('opens its object, not a context: "subscribe to a repository" is about the repository', () => {
    assert.equal(scoreOf('subscribe to a repository'), scoreOf('subscribe a repository'));
    // Led by a plural noun, "to" still names what for or where.
    assert.ok((scoreOf('repositories to subscribe') as number) < (scoreOf('subscribe a repository') as number));
  });
});

describe("a name's head noun", () => {
  const headOf = (name: string): string | undefined => {
    const tools = [tool('t', name, name, true)];
    const index = decodeSearchIndex(buildSearchIndex(tools), tools);
    return [...index.postings].find(([, postings]) => postings.id === index.heads[0])?.[0];
  };
  const cases: [string, string | undefined][] = [
    ['Add user to group', term('user')],
    ['Get a list of group issues', term('issues')],
    ["Get all of a repository's labels", term('labels')],
    ['Gets a list of access requests for a group.', term('requests')],
    ['Search for dashboards', undefined],
  ];
  for (const [name, want] of cases) it(`of "${name}" is ${String(want)}`, () => assert.equal(headOf(name), want));
});

describe('abbreviations', () => {
  const crd = (verb: string, readOnly: boolean): ServedTool =>
    tool(`${verb}CustomResourceDefinition`, `${verb} CustomResourceDefinition`, `${verb} a CustomResourceDefinition.`, readOnly);
  const tools = [
    crd('list', true),
    crd('create', false),
    crd('delete', false),
    tool('listPods', 'list Pods', 'List the pods of a namespace.', true),
    tool('createCertificateSigningRequest', 'create CertificateSigningRequest', 'Create a certificate signing request.', false),
  ];

  it('an upper-case abbreviation with a plural s is one word, in a query as in a name', async () => {
    const { words } = await import('../../src/runtime/search/analysis.js');
    assert.deepEqual(words('which CRDs are installed'), ['which', 'crds', 'are', 'installed']);
    assert.deepEqual(words('getURLs listAPIs userIDs CRDsList'), ['get', 'urls', 'list', 'apis', 'user', 'ids', 'crds', 'list']);
    assert.deepEqual(words('HTTPServer OSS'), ['http', 'server', 'oss']);
  });

  it('a three-letter word the catalogue lacks finds the names whose words it abbreviates', () => {
    assert.equal(first(tools, 'list the CRDs', SHIPPED_LEVERS), 'listCustomResourceDefinition');
    assert.equal(first(tools, 'list the CRDs', { ...SHIPPED_LEVERS, initialismWeight: 0 }), 'listPods');
  });

  it('three initials met in one name only, or a short form the vocabulary makes, are no abbreviation', () => {
    const index = decodeSearchIndex(buildSearchIndex(tools), tools);
    assert.deepEqual(index.initialisms().get('crd'), [
      term('custom') + '_' + term('resource'),
      term('resource') + '_' + term('definition'),
    ]);
    // "Certificate Signing Request" appears in one tool: "csr" is left alone.
    assert.equal(index.initialisms().get('csr'), undefined);
    // "ts" is the vocabulary's form of "typescript", never read as initials.
    assert.equal(first(tools, 'typescript', SHIPPED_LEVERS), undefined);
  });
});
