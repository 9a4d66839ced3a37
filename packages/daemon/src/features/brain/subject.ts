import { BOT_ROSTER, WHAT_CHANGED_QUESTION } from '@forge/shared';

/** What a question is about, besides its project: the record the answer comes from. */
export type Topic =
  | 'projects'
  | 'plan'
  | 'tests'
  | 'repairs'
  | 'failure'
  | 'logs'
  | 'steps'
  | 'scripts'
  | 'dependencies'
  | 'files'
  | 'find'
  | 'code'
  | 'builds'
  | 'bot'
  /** What changed since the last green build (features/why-red). */
  | 'changes'
  | 'none';

/** A question taken apart: the names it holds and what it asks about them. */
export interface Subject {
  /** A known project the question names ("the plan of broken-all", "is shop passing"). */
  project: string | null;
  /**
   * A name the question gives as a project that Forge does not hold ("the plan of shopp"), or a word
   * after "of/in/for" the engine still has to place (a folder, a package, a project).
   */
  named: string | null;
  /** Whether `named` was called a project outright ("project shopp", "shopp's builds"). */
  namedAsProject: boolean;
  /** Words after "in/under/inside/of" ("which files are in src?"): folders or files to look for. */
  places: string[];
  /** A build id ("b12-3fa9c1"). */
  buildId: string | null;
  /** A bot of the roster ("RepairBot", "repair bot"). */
  bot: string | null;
  /** Files or folders written as paths ("src/App.tsx", "vite.config.ts", "src/"). */
  paths: string[];
  topic: Topic;
  /** The words left for a search of the code: no question words, no names already placed. */
  terms: string[];
  /** The question lower-cased, without the names found (what the topic was read from). */
  rest: string;
  /** The question as written. */
  question: string;
}

/** Words that are never a project, folder or search term on their own. */
const STOP = new Set(
  (
    "a an the this that these those it its it's is are was were be been being do does did done doing " +
    'what which who whom whose where when why how there here of in on at to for from by with about into ' +
    'under inside over and or not no yes my our your me i you we they them he she his her their ' +
    'can could should would will shall may might must please tell show give list find locate say said ' +
    'project projects app application code codebase repo repository file files folder folders directory ' +
    'thing things something anything everything any all some each every one last latest newest recent ' +
    'recently current first previous now ever again also just only get got go went happen happened ' +
    'know see look make made use used uses using call called calls handle handled handles handling ' +
    'defined define defines implemented implement implements declared declare rendered render renders ' +
    'configured configure set sets setup done work works working happen happens need needs so then ' +
    'than up out have has had more most many much'
  ).split(' '),
);

/** Words that say the question is about where something is in the code, not about a record. */
const CODE_VERBS =
  /\b(?:uses?|used|using|imports?|imported|importing|calls?|called|calling|handled?|handles|handling|defined|defines|define|implemented|implements|declared|rendered|renders|configured|referenced|mentioned|reads?|written|creates?|created|sends?|sent|validated|validates|stored|stores|logic|code for|source of)\b/;

const TOPIC_RULES: ReadonlyArray<readonly [Topic, RegExp]> = [
  // First: "what changed since it last worked?" names no record the later rules would claim.
  ['changes', WHAT_CHANGED_QUESTION],
  [
    'projects',
    /\b(?:(?:which|what|list|all|my|the)\s+projects|projects\s+(?:are there|do i have|does forge (?:have|hold|know))|how many projects)\b|^projects$/,
  ],
  ['repairs', /\b(?:repair\w*|fix(?:es|ed)?|undo(?:ne)?|repairbot)\b/],
  ['tests', /\b(?:tests?|testing|tested|testbot|specs?|vitest|jest|mocha|junit)\b/],
  [
    'failure',
    /\b(?:fail\w*|errors?|broken|break\w*|went wrong|go wrong|goes wrong|crash\w*|diagnos\w*|scanbot|what'?s wrong|problems?|issues?|cause|red)\b/,
  ],
  ['logs', /\b(?:logs?|log lines|printed|console output|build output)\b/],
  [
    'plan',
    /\b(?:plan|plans|planned|blueprint\w*|blueprintbot|decisions?|decided|decide|choose|chose|chosen|picked|framework|package manager|output (?:dir|directory|folder)|node version|which node|kind of (?:project|app|site)|type of (?:project|app|site)|project type|stack|how (?:does|will|did) forge (?:build|serve|run)|app folder|evidence)\b/,
  ],
  [
    'scripts',
    /\b(?:scripts?|commands?|npm run|how (?:do|can|should) i (?:build|run|start|install|deploy)|dev server)\b/,
  ],
  [
    'dependencies',
    /\b(?:dependenc\w*|depends?|deps|dev ?dependencies|packages?|librar(?:y|ies)|versions?|installed|lockfile|node_modules)\b/,
  ],
  ['steps', /\b(?:steps?|stages?|how long|took|duration|timings?|slowest)\b/],
  ['files', /\b(?:files?|folders?|director(?:y|ies)|structure|tree|contents?|top level)\b/],
  [
    'builds',
    /\b(?:builds?|built|building|rebuil\w*|status|succeed\w*|pass(?:es|ed|ing)?|green|red|preview|deployed)\b/,
  ],
];

/** Bots named in a question, as written ("RepairBot", "repair bot", "repair-bot"). */
const BOTS = BOT_ROSTER.map((b) => ({
  name: b.name,
  pattern: new RegExp(`\\b${b.name.replace(/Bot$/, '')}[\\s-]?bot\\b`, 'i'),
}));

/** Build ids as the store makes them: b<seq>-<hex>. */
const BUILD_ID = /\bb\d+-[0-9a-f]{4,}\b/i;

/** A path: folders joined by "/", or a file name with an extension (a letter first: not "1.2"). */
const PATH =
  /(?<![\w@])(?:\.?[\w@.-]+\/)+[\w@.-]*|(?<![\w@/-])[\w-]+(?:\.[\w-]+)*\.[a-z][a-z0-9]{0,5}(?![\w/])/gi;

/** Words after these, when no record claims them, may be a project the user means. */
const NAMING =
  /\b(?:of|for|in|about|on|to|inside|under|within)\s+(?:the\s+)?(?:project\s+)?["'`]?([\w@./-]+)/g;
const PROJECT_THEN_NAME = /\bproject\s+(?:called\s+|named\s+)?["'`]?([\w.-]+)/g;
const NAME_THEN_PROJECT = /["'`]?([\w.-]+?)["'`]?(?:'s|\s+project)\b/g;

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where `name` stands as a word of `text` (hyphens and dots are part of a name), or -1. */
function wordAt(text: string, name: string): number {
  const m = new RegExp(`(?<![\\w.@/-])${escape(name)}(?![\\w/-]|\\.\\w)`, 'i').exec(text);
  return m ? m.index : -1;
}

/**
 * Read a question for its subject: the project, build, bot, file or folder it names and what it
 * asks about them. `projects` are the names Forge holds; a name of several words is not looked for.
 * Pure: the engine places what is left (a folder, a package) against the project's own records.
 */
export function parseSubject(question: string, projects: readonly string[]): Subject {
  let text = question.trim().replace(/[\s?!.]+$/, '');
  const buildMatch = BUILD_ID.exec(text);
  const buildId = buildMatch ? buildMatch[0].toLowerCase() : null;
  if (buildMatch) text = text.replace(buildMatch[0], ' ');

  let bot: string | null = null;
  for (const b of BOTS) {
    const m = b.pattern.exec(text);
    if (m) {
      bot = b.name;
      // The bot's name stays in `rest` (as one word) for the topic rules ("repairbot" → repairs).
      text = text.replace(m[0], ` ${b.name.toLowerCase()} `);
      break;
    }
  }

  // The longest project name first, so "shop-admin" is not read as "shop".
  let project: string | null = null;
  for (const name of [...projects].sort((a, b) => b.length - a.length)) {
    const at = wordAt(text, name);
    if (at < 0) continue;
    const plainWord = /^[a-z]+$/i.test(name);
    const before = text.slice(0, at).toLowerCase();
    const after = text.slice(at + name.length).toLowerCase();
    // A plain word ("shop", "docs") is a project only where the question names one, not as a noun.
    const named =
      !plainWord ||
      !STOP.has(name.toLowerCase()) ||
      /\b(?:of|for|in|about|on|to|project)\s+(?:the\s+)?$/.test(before) ||
      /^(?:'s|\s+project)\b/.test(after);
    if (!named) continue;
    project = name;
    text = `${text.slice(0, at)} ${text.slice(at + name.length)}`;
    break;
  }

  const paths: string[] = [];
  for (const m of text.matchAll(PATH)) {
    const p = m[0].replace(/^\.\//, '');
    if (p && p !== '/' && !/^\d/.test(p) && !paths.includes(p)) paths.push(p);
  }
  // Package names look like paths ("@tanstack/react-query"), and "date-fns" like nothing: both stay
  // in the text as terms too.

  const lower = text.toLowerCase();
  let named: string | null = null;
  let namedAsProject = false;
  const places: string[] = [];
  for (const m of lower.matchAll(NAMING)) {
    const word = m[1]!.replace(/["'`]+$/, '').replace(/\/+$/, '');
    if (word && !STOP.has(word) && !places.includes(word)) places.push(word);
  }
  if (!project) {
    const candidate = [...lower.matchAll(PROJECT_THEN_NAME), ...lower.matchAll(NAME_THEN_PROJECT)]
      .map((m) => m[1]!)
      .find((w) => !STOP.has(w) && !TOPIC_WORDS.has(w));
    if (candidate) {
      named = candidate;
      namedAsProject = true;
    } else {
      for (const m of lower.matchAll(NAMING)) {
        const word = m[1]!.replace(/["'`]+$/, '');
        if (!STOP.has(word) && !TOPIC_WORDS.has(word)) {
          named = word;
          break;
        }
      }
    }
  }

  const rest = lower.replace(/\s+/g, ' ').trim();
  let topic: Topic = 'none';
  const asksWhere =
    /^(?:where(?:'s|\s+is|\s+are|\s+do|\s+does|\s+did)?|find|locate|search(?:\s+for)?|grep)\b/.test(rest);
  const asksWhich = /^(?:what|which|who)\b/.test(rest) || asksWhere;
  if (bot && !TOPIC_RULES.some(([, re]) => re.test(rest.replace(bot.toLowerCase(), '')))) {
    topic = BOT_TOPIC[bot] ?? 'bot';
  } else if (asksWhere && !CODE_VERBS.test(rest) && paths.length > 0) topic = 'find';
  else if (
    paths.length > 0 &&
    /^(?:what(?:'s| is)? in|show(?: me)?|open|print|cat|read)\b|\bcontents? of\b/.test(rest)
  )
    topic = 'files';
  else {
    const ruled = TOPIC_RULES.find(([, re]) => re.test(rest))?.[0] ?? 'none';
    // "what uses date-fns?", "where is the login handled?": the code, unless a record is named
    // ("which framework does it use?" is the plan's).
    if (asksWhich && CODE_VERBS.test(rest) && (ruled === 'none' || ruled === 'files')) topic = 'code';
    else topic = ruled;
    if (topic === 'none' && paths.length > 0) topic = asksWhere ? 'find' : 'files';
    else if (topic === 'none' && asksWhere) topic = 'code';
  }
  // "the build of b12-…" and "what happened in b12-…" are about that build.
  if (buildId && topic === 'none') topic = 'builds';

  const terms = rest
    .replace(PATH, ' ')
    .split(/[^\w@/.-]+/)
    .map((w) => w.replace(/^[.-]+|[.-]+$/g, ''))
    .filter((w) => w.length > 1 && !STOP.has(w) && !QUESTION_WORDS.has(w) && !/^\d+$/.test(w));
  return { project, named, namedAsProject, places, buildId, bot, paths, topic, terms, rest, question };
}

/** What a bot named alone is asked about ("what did RepairBot do to broken-dep?"). */
const BOT_TOPIC: Partial<Record<string, Topic>> = {
  RepairBot: 'repairs',
  ScanBot: 'failure',
  TestBot: 'tests',
  BlueprintBot: 'plan',
  DependencyBot: 'bot',
  LintBot: 'bot',
};

/** Words of the topic rules: after "of/in/for" they name a record, not a project. */
const TOPIC_WORDS = new Set(
  (
    'plan blueprint build builds tests test failure failures error errors repairs repair logs log steps ' +
    'scripts script dependencies deps packages package files folder folders src source it this that ' +
    'workspace forge day today yesterday morning order detail details general production dev development'
  ).split(' '),
);

/** Words that carry the question, not its subject: left out of a code search. */
const QUESTION_WORDS = new Set(
  (
    'where whats what which who how why when imports import imported importing reads read written ' +
    'creates create created sends send sent validated validates validate stored stores store logic ' +
    'source referenced mentioned happens done handler handlers function functions component components ' +
    'computed compute computes calculated calculate calculates shown show shows displayed display loaded ' +
    'fetched saved updated changed kept made happen logic implementation ' +
    'method methods class module modules line lines page pages place part'
  ).split(' '),
);
