import type { Field, Spec } from '../grammar.ts';
import { camelName, pascalName, wordsOf } from '../names.ts';

/**
 * What a recipe reads from a description besides the grammar's name and fields: its words, a name
 * the user gave explicitly, and which of its words no recipe vocabulary explains (a recipe that
 * cannot explain a word of the description does not claim it: "applying a discount" is not a sum).
 */
export interface Desc {
  spec: Spec;
  /** The description in lower case. */
  text: string;
  words: string[];
  /** `called X`, `named X` or a signature's name; null when the name is the generator's guess. */
  explicitName: string | null;
}

export function describe(spec: Spec): Desc {
  const text = spec.description.toLowerCase();
  const called = /\b(?:called|named)\s+['"`]?([A-Za-z_$][\w$]*)/.exec(spec.description);
  const signature = /^\s*(?:(?:export\s+)?(?:async\s+)?function\s+)?([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\(/.exec(
    spec.description,
  );
  return {
    spec,
    text,
    words: wordsOf(spec.description),
    explicitName: called?.[1] ?? signature?.[1] ?? null,
  };
}

/** Whether any word of the description matches. */
export const hasWord = (d: Desc, pattern: RegExp): boolean => d.words.some((w) => pattern.test(w));

/** A function's name: the user's when given, else the recipe's. */
export const functionName = (d: Desc, fallback: string): string =>
  d.explicitName ? camelName(d.explicitName, fallback) : fallback;

/**
 * A component's name: the user's words when they name the thing (a login form → LoginForm: they
 * contain the recipe's `noun`), else the recipe's.
 */
export function componentName(d: Desc, fallback: string, noun: RegExp): string {
  if (d.explicitName) return pascalName(d.explicitName, fallback, 'View');
  if (!d.spec.named) return fallback;
  const words = wordsOf(d.spec.rawName).filter((w) => !/^(component|widget|react)$/.test(w));
  return words.some((w) => noun.test(w)) ? pascalName(words.join(' '), fallback, 'View') : fallback;
}

/**
 * Words that carry no task of their own: articles, linking words, the kinds' nouns, type names,
 * request verbs. Words that change a computation (not, only, except, without, if, per, unless…)
 * are deliberately absent: a recipe must explain them or decline.
 */
const FILLER = new Set(
  (
    'a an the this that these those some any it its it’s their them they we you i me my our your ' +
    'with and or of for to in on at by from into onto as is are be been being was were will would should ' +
    'can could may might must do does which who whose where when then than given takes take taking ' +
    'accepts accept accepting receives receive receiving having has have containing contains including ' +
    'returns return returning returned gives give giving yields produce produces outputs output ' +
    'function functions fn func method helper helpers util utility utilities component components widget ' +
    'react reusable simple basic small little nice typed typescript javascript ts js generic generics ' +
    'write writes create creates make makes build builds generate generates implement implements ' +
    'need needs want please also just very new one two both ' +
    'value values param params parameter parameters argument arguments arg args prop props property ' +
    'properties field fields option options optional required default defaults config ' +
    'string strings number numbers numeric boolean booleans date dates object objects array arrays ' +
    'list lists record records item items element elements type types interface ' +
    'callback callbacks handler handlers event events void null undefined unknown any ' +
    'called named name it using use uses via so such like e g eg etc ms whether over ' +
    'turn turns turning convert converts converting transform transforms into out ' +
    'int integer float decimal bool uuid guid url uri email text json datetime timestamp reactnode'
  ).split(/\s+/),
);

/** The description's words that neither the filler, the fields, the name nor `vocabulary` explain. */
export function unexplained(
  d: Desc,
  vocabulary: RegExp,
  alsoKnown: string[] = [],
  fields: 'all' | 'collections' = 'all',
): string[] {
  const known = new Set<string>(alsoKnown);
  const used = fields === 'all' ? d.spec.fields : d.spec.fields.filter((f) => f.type.kind === 'array');
  for (const f of used) for (const w of wordsOf(f.name)) known.add(w);
  for (const f of used) collectTypeWords(f, known);
  if (d.explicitName) for (const w of wordsOf(d.explicitName)) known.add(w);
  // A capitalised word inside a sentence (for User, a ProductTile card) is a name the user gives.
  for (const m of d.spec.description.matchAll(
    /(?<=[A-Za-z0-9,;:)]\s+)([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)*)\b/g,
  ))
    for (const w of wordsOf(m[1]!)) known.add(w);
  return [
    ...new Set(
      d.words.filter((w) => !FILLER.has(w) && !known.has(w) && !vocabulary.test(w) && !/^\d+$/.test(w)),
    ),
  ];
}

function collectTypeWords(field: Field, into: Set<string>): void {
  const visit = (t: Field['type']): void => {
    if (t.kind === 'ref') for (const w of wordsOf(t.name)) into.add(w);
    if (t.kind === 'enum') for (const v of t.values) for (const w of wordsOf(v)) into.add(w);
    if (t.kind === 'array') visit(t.of);
    if (t.kind === 'callback') {
      t.params.forEach((p) => {
        for (const w of wordsOf(p.name)) into.add(w);
        visit(p.type);
      });
      visit(t.returns);
    }
  };
  visit(field.type);
}
