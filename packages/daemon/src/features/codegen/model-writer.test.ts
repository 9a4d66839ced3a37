import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '@forge/shared';
import { ModelError, type ModelClient, type ModelRequest } from '../../capabilities/model/types.ts';
import { createFleet } from '../../engine/fleet/fleet.ts';
import { memoryLogger } from '../../../test/helpers.ts';
import { generateFromTemplate } from './generator.ts';
import { codePrompt, stripFences, writeWithModel } from './model-writer.ts';
import { syntaxErrors } from './parse-check.ts';
import { createCodegenService } from './service.ts';

/** A model that answers with fixed text and keeps what it was asked. */
class FixedModel implements ModelClient {
  readonly model = 'fixed-test-model';
  readonly url = 'http://127.0.0.1:9/v1';
  readonly requests: ModelRequest[] = [];
  constructor(private readonly answer: string | Error) {}
  async complete(request: ModelRequest): Promise<string> {
    this.requests.push(request);
    if (this.answer instanceof Error) throw this.answer;
    return this.answer;
  }
}

const GOOD_COMPONENT = [
  'Here is the component:',
  '',
  '```tsx',
  'export interface UserCardProps {',
  '  name: string;',
  '}',
  '',
  'export function UserCard({ name }: UserCardProps) {',
  '  return <p className="user-card">Hello, {name}</p>;',
  '}',
  '```',
  '',
  'It shows the name.',
].join('\n');

const BROKEN = 'export function UserCard({ name }: UserCardProps) {\n  return <p>{name</p>;\n';

const description = 'a UserCard component with name: string';

describe('the model path', () => {
  it('takes the code out of a fenced reply', () => {
    expect(stripFences('```ts\nconst a = 1;\n```')).toBe('const a = 1;');
    expect(stripFences('Sure!\n```typescript\nconst a = 1;\nconst b = 2;\n```\nDone.')).toBe(
      'const a = 1;\nconst b = 2;',
    );
    expect(stripFences('  const a = 1;  ')).toBe('const a = 1;');
  });

  it('checks syntax per language and file kind', async () => {
    expect(await syntaxErrors('const a: number = 1;', 'a.ts')).toEqual([]);
    expect(await syntaxErrors('const a: number = 1;', 'a.js')).not.toEqual([]);
    expect(await syntaxErrors('export const A = () => <b>hi</b>;', 'a.tsx')).toEqual([]);
    expect(await syntaxErrors('export const A = () => <b>hi</b>;', 'a.ts')).not.toEqual([]);
    // A generic arrow is TypeScript in .ts, JSX in .tsx.
    expect(await syntaxErrors('export const id = <T>(x: T) => x;', 'a.ts')).toEqual([]);
    const [problem] = await syntaxErrors('let x = ;', 'a.ts');
    expect(problem).toMatchObject({ line: 1, column: 9 });
  });

  it('tells the model the kind, language, name and fields, and asks for only the code', () => {
    const draft = generateFromTemplate('component', description);
    const [system, user] = codePrompt(draft.spec, draft.result);
    expect(system!.content).toContain('Kind: component. Language: typescript. Name: UserCard.');
    expect(system!.content).toContain('- name: string');
    expect(system!.content).toContain('Reply with only the code');
    expect(user!.content).toContain(description);
    expect(user!.content).toContain(draft.result.code);
  });

  it('accepts code that parses and refuses code that does not', async () => {
    const draft = generateFromTemplate('component', description);
    const good = await writeWithModel(new FixedModel(GOOD_COMPONENT), draft.spec, draft.result);
    expect(good).toMatchObject({ ok: true, code: expect.stringContaining('Hello, {name}') });
    expect(good.ok && good.code.startsWith('export interface UserCardProps')).toBe(true);

    const broken = await writeWithModel(new FixedModel(BROKEN), draft.spec, draft.result);
    expect(broken).toEqual({
      ok: false,
      reason: expect.stringMatching(/^the model's code does not parse \(line 2:/),
    });
    const prose = await writeWithModel(new FixedModel('I cannot do that, sorry.'), draft.spec, draft.result);
    expect(prose.ok).toBe(false);
    const empty = await writeWithModel(new FixedModel('```\n```'), draft.spec, draft.result);
    expect(empty).toEqual({ ok: false, reason: 'the model answered nothing' });
    const down = await writeWithModel(
      new FixedModel(new ModelError('connection refused', 502)),
      draft.spec,
      draft.result,
    );
    expect(down).toEqual({ ok: false, reason: 'the model did not answer: connection refused' });
    // TypeScript from a model asked for JavaScript is refused too.
    const js = generateFromTemplate('component', description, 'javascript');
    expect((await writeWithModel(new FixedModel(GOOD_COMPONENT), js.spec, js.result)).ok).toBe(false);
  });
});

describe('CodeGenBot', () => {
  const setup = (model: ModelClient | null) => {
    const messages: ServerMessage[] = [];
    const fleet = createFleet({ broadcast: (m) => messages.push(m), maxConcurrent: () => 1 });
    const { logger, lines } = memoryLogger();
    const service = createCodegenService({ fleet, logger, model: () => model });
    return { fleet, service, lines, messages };
  };
  const lastJob = (fleet: ReturnType<typeof createFleet>) =>
    fleet.list().find((b) => b.name === 'CodeGenBot')!.lastJob;

  it('answers with the template without a model, as a job of its own', async () => {
    const { fleet, service, messages } = setup(null);
    const result = await service.generate({ kind: 'component', description });
    expect(result).toMatchObject({ source: 'template', name: 'UserCard', fileName: 'UserCard.tsx' });
    expect(lastJob(fleet)).toMatchObject({
      label: 'generate component UserCard',
      ok: true,
      summary: 'wrote UserCard.tsx (built-in template)',
    });
    // Every client saw it at work.
    expect(messages).toContainEqual({
      type: 'bot-status',
      botName: 'CodeGenBot',
      status: 'building',
      job: 'generate component UserCard',
    });
  });

  it("answers with the model's code when it parses", async () => {
    const model = new FixedModel(GOOD_COMPONENT);
    const { fleet, service } = setup(model);
    const result = await service.generate({ kind: 'component', description });
    expect(result).toMatchObject({
      source: 'model',
      name: 'UserCard',
      fileName: 'UserCard.tsx',
      language: 'typescript',
    });
    expect(result.code).toContain('Hello, {name}');
    expect(result.fields).toEqual([{ name: 'name', type: 'string', optional: false }]);
    expect(model.requests[0]!.temperature).toBe(0);
    expect(lastJob(fleet)?.summary).toBe('wrote UserCard.tsx (model)');
  });

  it('falls back to the template, and says so in the log, when the model writes broken code', async () => {
    const { service, lines } = setup(new FixedModel(BROKEN));
    const result = await service.generate({ kind: 'component', description });
    expect(result.source).toBe('template');
    expect(result.code).toBe(generateFromTemplate('component', description).result.code);
    const warning = lines().find((l) => l.level === 40);
    expect(warning).toMatchObject({
      model: 'fixed-test-model',
      reason: expect.stringContaining('does not parse'),
    });
    expect(String(warning?.msg)).toContain('built-in template');
  });
});
