// The hand-kept word lists of search: stop words, abbreviations, two-word expressions, developer-vocabulary synonyms
// and the verbs that say which kind of action a query wants. General synonyms come from WordNet, at generation time.

/** Words with no intent in a query ("check MY file has ALL keys"). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  ('a an the my me i to for of in on at by with from into onto and or is are be been it its this that these those any ' +
    'some has have had do does did can could would should will want wants need needs please how what which whose ' +
    'using use via so if then than out up about tool tools something thing things our your we you ' +
    'just also there their them they one whether way ok am being as someone somebody i\'m').split(' '),
);

/** Abbreviations and spellings that mean the same word; applied before stemming. */
export const CANONICAL_WORDS: Readonly<Record<string, string>> = {
  environment: 'env', environments: 'env', environmental: 'env', dotenv: 'env', envs: 'env',
  configuration: 'config', configurations: 'config', configs: 'config', cfg: 'config', conf: 'config',
  repository: 'repo', repositories: 'repo', repos: 'repo',
  authentication: 'auth', authorization: 'auth', authorisation: 'auth', authenticate: 'auth', authorize: 'auth',
  typescript: 'ts', javascript: 'js', ecmascript: 'js', yml: 'yaml', database: 'db', databases: 'db',
  directory: 'dir', directories: 'dir', folder: 'dir', folders: 'dir',
  dependency: 'dep', dependencies: 'dep', deps: 'dep', package: 'pkg', packages: 'pkg',
  regexp: 'regex', regexes: 'regex', regexps: 'regex', identifier: 'id', identifiers: 'id', ids: 'id',
  kubernetes: 'k8s', documentation: 'doc', docs: 'doc',
  statistics: 'stat', stats: 'stat', statistic: 'stat', information: 'info', colour: 'color', colours: 'color',
  characters: 'char', character: 'char', chars: 'char', md: 'markdown', img: 'image', pic: 'image', picture: 'image',
  pwd: 'password', passwords: 'password', uri: 'url', uris: 'url', urls: 'url',
  guid: 'uuid', guids: 'uuid', timestamp: 'time', timestamps: 'time',
  datetime: 'date', variables: 'var', variable: 'var', vars: 'var', params: 'param', parameters: 'param', parameter: 'param',
  args: 'arg', arguments: 'arg', argument: 'arg', str: 'string', txt: 'text', num: 'number', nums: 'number',
  favourite: 'favorite', favourites: 'favorite', finalise: 'finalize', organisation: 'organization', organisations: 'organization',
  org: 'organization', orgs: 'organization', msg: 'message', msgs: 'message', pr: 'pull', prs: 'pull', sub: 'subscription',
  subs: 'subscription', acct: 'account', accts: 'account', addr: 'address', pw: 'password', tz: 'timezone',
  cancelled: 'canceled', cancelling: 'canceling', analyse: 'analyze', sanitise: 'sanitize', licence: 'license',
};

/**
 * Tool nouns that name what they do ("a parser parses"), which the Porter stemmer leaves apart from their verb, and
 * nouns of action it stems differently from the verb ("minification"); mapped to the verb before stemming.
 */
export const AGENT_NOUNS: Readonly<Record<string, string>> = {
  parser: 'parse', parsers: 'parse', formatter: 'format', formatters: 'format', minifier: 'minify', minifiers: 'minify',
  minification: 'minify', tester: 'test', testers: 'test', scanner: 'scan', scanners: 'scan', checker: 'check',
  checkers: 'check', linter: 'lint', linters: 'lint', beautifier: 'beautify', prettifier: 'prettify', analyzer: 'analyze',
  analyser: 'analyze', builder: 'build', builders: 'build', viewer: 'view', writer: 'write', uploader: 'upload',
  downloader: 'download', importer: 'import', exporter: 'export', loader: 'load', runner: 'run', encoder: 'encode',
  encoders: 'encode', resolver: 'resolve', previewer: 'preview', renderer: 'render', counter: 'count', counters: 'count',
  sorter: 'sort', splitter: 'split', merger: 'merge', extractor: 'extract', finder: 'find', inspector: 'inspect',
  identification: 'identify', verification: 'verify', modification: 'modify', notification: 'notify',
};

/** Two-word expressions that mean one thing; the query uses the phrase alone, documents keep both words too. */
export const PHRASES: Readonly<Record<string, string>> = {
  'pretty print': 'prettify', 'pretty printing': 'prettify', 'pretty printer': 'prettify',
  'regular expression': 'regex', 'regular expressions': 'regex', 'time zone': 'timezone', 'time zones': 'timezone',
  'e mail': 'email', 'web token': 'jwt', 'web tokens': 'jwt', 'dot env': 'env', 'user agent': 'useragent',
  'look up': 'lookup', 'check sum': 'checksum', 'set up': 'setup', 'front matter': 'frontmatter',
  'get rid': 'remove', 'sign up': 'signup', 'log in': 'login', 'log out': 'logout', 'web hook': 'webhook',
  'pull request': 'pull', 'pull requests': 'pull', 'work log': 'worklog', 'check out': 'checkout',
  'bug report': 'issue', 'bug reports': 'issue', 'bring back': 'restore',
};

/** Words by which a query speaks of its caller ("my repos", "what am I allowed to do"). */
export const SELF_WORDS: ReadonlySet<string> = new Set(['i', 'me', 'my', 'myself', 'mine']);
/** The words a tool uses for its caller: a query that speaks of itself favours the tools that have them. */
export const SELF_TOOL_WORDS: readonly string[] = ['current', 'authenticated', 'myself', 'me', 'my', 'own', 'self', 'caller'];

/** Question words that ask about people: besides asking for a list, they stand for the people a tool names. */
export const PERSON_QUESTION_WORDS: readonly string[] = ['who', 'whom'];
/** The words a tool uses for people, which a person question word matches at a synonym's weight. */
export const PERSON_WORDS: readonly string[] = ['user', 'people', 'person', 'member', 'account'];

/** Words close enough in intent to count for each other, at reduced weight: developer and API vocabulary. */
export const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['validate', 'check', 'verify', 'lint', 'valid', 'validity', 'ensure', 'audit'],
  ['generate', 'create', 'make', 'produce', 'build', 'random'],
  ['fake', 'mock', 'dummy', 'sample', 'synthetic', 'placeholder', 'fixture'],
  ['convert', 'transform', 'translate', 'turn'],
  ['format', 'prettify', 'beautify', 'indent', 'tidy'],
  ['minify', 'shrink', 'uglify', 'compact'],
  ['compress', 'zip', 'gzip', 'deflate'],
  ['compare', 'diff', 'difference'],
  ['decode', 'parse', 'inspect', 'unpack'],
  ['encode', 'serialize', 'escape'],
  ['hash', 'digest', 'checksum', 'fingerprint'],
  ['count', 'stat', 'measure', 'metric'],
  ['remove', 'delete', 'strip', 'clean', 'trim', 'erase', 'destroy', 'drop'],
  ['find', 'search', 'lookup', 'locate', 'match', 'query'],
  ['extract', 'pull', 'scrape'],
  ['time', 'date', 'epoch', 'clock'],
  ['key', 'secret', 'credential'],
  ['text', 'string'],
  ['test', 'fixture'],
  ['sort', 'order', 'arrange', 'reorder'],
  ['split', 'chunk'],
  ['merge', 'combine', 'join'],
  ['case', 'capitalize', 'uppercase', 'lowercase'],
  ['cron', 'schedule'],
  ['issue', 'ticket', 'bug'],
  ['customer', 'client', 'shopper', 'buyer'],
  ['update', 'edit', 'change', 'modify', 'rename'],
  ['show', 'view', 'get', 'read', 'retrieve', 'fetch', 'detail'],
  ['list', 'all', 'every', 'browse'],
  ['add', 'new', 'open', 'register', 'create', 'file'],
  ['cancel', 'abort', 'stop', 'end', 'terminate'],
  ['user', 'member', 'people', 'person', 'account'],
  ['follow', 'watch', 'subscribe'],
  ['upload', 'attach'],
  ['download', 'content'],
  ['release', 'version'],
  ['comment', 'reply', 'discussion', 'note'],
  ['webhook', 'notification', 'callback'],
  ['copy', 'duplicate', 'clone'],
  ['restore', 'undelete', 'recover'],
  ['approve', 'accept', 'allow'],
  ['decline', 'reject', 'deny'],
  ['revert', 'reverse', 'undo'],
  ['locale', 'language'],
];

/** Action words that are as often nouns or adjectives: they name the query's action only as its first word. */
export const NOUN_OR_VERB_WORDS: readonly string[] = ['file', 'post', 'store', 'set', 'query', 'search', 'open', 'list', 'detail'];

/** What a tool does to its object, as its name's verb says: the axis on which "remove x" and "show x" differ. */
export type ActionKind = 'create' | 'read' | 'list' | 'update' | 'delete';

/** Verbs (and list words) that name an action, in a tool's name or slug and in a query. */
export const ACTION_WORDS: Readonly<Record<string, ActionKind>> = {
  create: 'create', add: 'create', new: 'create', post: 'create', insert: 'create', register: 'create', open: 'create',
  make: 'create', setup: 'create', start: 'create', file: 'create', upload: 'create', store: 'create', define: 'create',
  get: 'read', show: 'read', view: 'read', read: 'read', retrieve: 'read', fetch: 'read', detail: 'read', describe: 'read',
  list: 'list', all: 'list', every: 'list', search: 'list', find: 'list', browse: 'list', query: 'list', which: 'list',
  who: 'list', whom: 'list', paginated: 'list',
  update: 'update', edit: 'update', change: 'update', modify: 'update', set: 'update', put: 'update', patch: 'update',
  rename: 'update', replace: 'update',
  delete: 'delete', remove: 'delete', erase: 'delete', destroy: 'delete', drop: 'delete', trash: 'delete', purge: 'delete',
};
