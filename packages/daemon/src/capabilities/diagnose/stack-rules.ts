import { STACK_LABELS, type Diagnosis } from '@forge/shared';
import { at, placeText, type Context } from './context.ts';

/**
 * Failures of projects of other stacks, in their tools' own words: Go's compiler, PHP's fatal and
 * parse errors, Python's traceback, Hugo's and Jekyll's templates, MkDocs' config. The first error line
 * and its place are first-error.ts's; this says what kind of error it is and what to do, so the
 * diagnosis, the hint and the fix name the same file and the same words.
 */

/** Errors that are the code not parsing, by the words each tool uses. */
const SYNTAX =
  /^(?:syntax error|SyntaxError|IndentationError|TabError)\b|^(?:PHP )?Parse error|Liquid syntax error|parse failed|template: \S+: (?:unexpected|bad |function "[^"]+" not defined|unclosed|missing)/;
/** Python's last traceback line: "ModuleNotFoundError: No module named 'x'". */
const PY_EXCEPTION = /^([A-Z]\w*(?:Error|Exception|Exit|Interrupt)): (.*)$/;
const PY_MISSING_MODULE = /^(?:ModuleNotFoundError|ImportError): No module named '([\w.]+)'/;
/** PHP: "Uncaught Error: Call to undefined function x() in …" → the exception class. */
const PHP_UNCAUGHT = /Uncaught ([\w\\]+)/;
/** Jekyll's "It looks like you don't have jekyll-feed or one of its dependencies installed." */
const JEKYLL_GEM = /you don't have (\S+) or one of its dependencies installed/;

export function stackCodeError(ctx: Context): Diagnosis | null {
  const { blueprint, step } = ctx.input;
  const stack = blueprint?.stack;
  if (!stack || stack === 'javascript' || stack === 'static') return null;
  if (step !== 'install' && step !== 'build' && step !== 'preview' && step !== 'test') return null;
  const found = ctx.first();
  if (!found) return null;
  const { firstLine, location } = found;
  const place = location ? ` (${placeText(location)})` : '';
  const fixAt = location ? `Fix ${placeText(location)}` : 'Fix it';
  const name = STACK_LABELS[stack];

  const gem = JEKYLL_GEM.exec(firstLine)?.[1];
  if (stack === 'jekyll' && gem) {
    return {
      code: 'MISSING_PACKAGE',
      summary: `Jekyll cannot load ${gem}: the site's plugins need it and ${blueprint.install ? "neither the Gemfile's bundle nor this machine's Ruby has it" : "this machine's Ruby does not have it"}.`,
      file: '_config.yml',
      suggestion: blueprint.install
        ? `Add \`gem "${gem}"\` to the Gemfile's :jekyll_plugins group (Bundler installs it from the Gemfile's source), or remove it from plugins in _config.yml.`
        : `Install the ${gem} gem on the machine that runs Forge (\`gem install ${gem}\`, or its Debian package ruby-${gem}), or remove it from plugins in _config.yml; without a Gemfile Forge builds with this machine's jekyll and its gems.`,
      subjects: [gem],
    };
  }
  const module = PY_MISSING_MODULE.exec(firstLine)?.[1];
  if (stack === 'python' && module) {
    const requirements = blueprint.decisions.find((d) => d.field === 'install')?.file ?? 'requirements.txt';
    return {
      code: 'MISSING_PACKAGE',
      summary: `${firstLine}${place}: ${module} is neither installed in the project's virtual environment nor a module of the project.`,
      ...at(location),
      suggestion: `Add the package that provides ${module.split('.')[0]} to ${requirements} (its wheel in the --find-links folder when the index is not reachable), or fix the import${location ? ` in ${placeText(location)}` : ''}.`,
      subjects: [module],
    };
  }
  if (SYNTAX.test(firstLine)) {
    return {
      code: 'SYNTAX_ERROR',
      summary: `${firstLine}${place}`,
      ...at(location),
      suggestion: `${fixAt}: ${name}'s ${stack === 'go' ? 'compiler' : 'parser'} cannot read it (${firstLine}).`,
      subjects: [firstLine],
    };
  }
  if (stack === 'go' && location) {
    return {
      code: 'TYPE_ERROR',
      summary: `${firstLine}${place}`,
      ...at(location),
      suggestion: `${fixAt}: Go's compiler rejects it (${firstLine}); \`go vet ./...\` lists every error, go build stops after ten.`,
      subjects: [firstLine],
    };
  }
  const py = stack === 'python' ? PY_EXCEPTION.exec(firstLine) : null;
  const fatal = stack === 'php' && ctx.lines.some((l) => /Fatal error:/.test(l));
  const php = fatal ? (PHP_UNCAUGHT.exec(firstLine)?.[1] ?? 'a fatal error') : null;
  const template = (stack === 'hugo' || stack === 'jekyll') && /template|Liquid/i.test(firstLine);
  if (py || php || template) {
    const what = py?.[1] ?? php ?? 'a template error';
    return {
      code: 'RUNTIME_ERROR',
      summary: `${firstLine}${place}`,
      ...at(location),
      suggestion: `${fixAt}: ${step === 'preview' ? 'the app stopped on' : `the ${step} stopped on`} ${what} (${firstLine}).`,
      subjects: [what],
    };
  }
  return null;
}

/** Forge's own words when a tool the project's install needs is missing (stack-tool.ts). */
const INSTALL_TOOL_MISSING =
  /^(.+?) \((\S+)\) installs with (\S+); \3 is not on this machine's PATH\. Install it with: (.+)$/;

/**
 * The tool a project's own files ask to install with (pipenv for a Pipfile, Bundler for a Gemfile) is
 * not on the machine: named with its file, not the stack's tool, which is there.
 */
export function installToolMissing(ctx: Context): Diagnosis | null {
  const { error } = ctx.input;
  if (error.code !== 'TOOLCHAIN_UNAVAILABLE') return null;
  const hit = INSTALL_TOOL_MISSING.exec(error.message);
  if (!hit) return null;
  const [, , file, tool, command] = hit;
  return {
    code: 'TOOLCHAIN_MISSING',
    summary: error.message,
    file: file!,
    suggestion: `Install ${tool} on the machine that runs Forge (\`${command}\`), then build again; ${file} is installed with ${tool}, and Forge never installs system packages itself.`,
    subjects: [tool!],
  };
}

/** Bundler's "Could not find gem 'jekyll-foo' in rubygems repository https://… or installed locally." */
const BUNDLER_NO_GEM =
  /Could not find gem '([^']+)'(?: in (?:rubygems repository|any of the gem sources) (\S+))?/;

/** Bundler's "Could not reach host index.rubygems.org. Check your network…" or "Could not fetch specs from <source> due to…". */
const BUNDLER_UNREACHABLE =
  /Could not reach host ([\w.-]+?)\.? Check your network|Could not fetch specs from (\S+) due to underlying error/;

const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/**
 * Bundler could not reach the Gemfile's source (NETWORK_AT_BUILD, naming the host), or could not
 * find a gem the Gemfile asks for, neither on its source nor among this machine's gems: named, with
 * the source it read.
 */
export function bundlerResolution(ctx: Context): Diagnosis | null {
  const { blueprint, error } = ctx.input;
  if (error.code !== 'INSTALL_FAILED' || (blueprint?.stack !== 'jekyll' && blueprint?.stack !== 'ruby'))
    return null;
  // Bundler wraps its message at the terminal's width: read as one text.
  const text = ctx.lines.join(' ').replace(/\s+/g, ' ');
  const offline = BUNDLER_UNREACHABLE.exec(text);
  const host = offline ? (offline[1] ?? hostOf(offline[2]!)) : undefined;
  if (host) {
    return {
      code: 'NETWORK_AT_BUILD',
      summary: `Bundler could not reach ${host} to install the Gemfile's gems this machine does not have.`,
      file: 'Gemfile',
      suggestion: `This machine does not reach ${host}: name a gem source it reaches in the Gemfile, or bring the missing gems with the project (\`path:\` gems), or install them on the machine that runs Forge.`,
      subjects: [host],
    };
  }
  const hit = BUNDLER_NO_GEM.exec(text);
  if (!hit) return null;
  const gem = hit[1]!;
  const name = gem.replace(/\s*\(.*$/, '');
  const source = hit[2]?.replace(/[.,]$/, '') ?? "the Gemfile's sources";
  return {
    code: 'PACKAGE_NOT_ON_REGISTRY',
    summary: `Bundler found no gem ${gem} on ${source} or among this machine's gems.`,
    file: 'Gemfile',
    suggestion: `Check the name and version of ${name} in the Gemfile, or make its source carry it (a source this machine reaches, a \`path:\` gem, or its .gem in vendor/cache).`,
    subjects: [name, source],
  };
}
