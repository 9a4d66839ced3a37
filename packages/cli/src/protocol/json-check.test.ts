import {
  BotInfo,
  BuildStep,
  CliResult,
  DaemonState,
  HealthResponse,
  Project,
  routes,
  Settings,
  SettingUpdate,
} from '@forge/shared';
import { logEntry, makeBlueprint, makeBuild, makeStep } from '@forge/testing';
import { describe, expect, it } from 'vitest';
import { checkJson, KNOWN_KEYWORDS, type JsonSchema } from './json-check.ts';
import { DAEMON_STATE_SCHEMA, ROUTES } from './protocol.precomputed.ts';

/** What zod's toJSONSchema makes of a schema, as the build precomputes it. */
const jsonSchema = (schema: { toJSONSchema(params: object): unknown }): JsonSchema =>
  schema.toJSONSchema({ io: 'output', unrepresentable: 'throw' }) as JsonSchema;
/** As it travels: what the daemon sends is zod's output, serialised. */
const wire = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const zodOutput = (schema: { parse(v: unknown): unknown }, value: unknown) =>
  JSON.stringify(schema.parse(value));

const failed = makeBuild({
  stages: [
    ['starting', 0],
    ['extraction', 5],
    ['build-start', 20],
    ['build-failed', 900],
  ],
  blueprint: makeBlueprint(),
  steps: [
    makeStep({ name: 'extract', botName: 'ExtractBot' }),
    makeStep({ name: 'build', botName: 'BuildBot', status: 'failed' }),
  ],
  error: { code: 'BUILD_FAILED', message: 'vite build exited with code 1', tail: ['x'] },
});
const succeeded = makeBuild({
  id: 'b2',
  stages: [
    ['starting', 0],
    ['integration-available', 80],
  ],
});
const builds = wire([succeeded, failed]);
const settings = wire(
  Settings.parse({ botOrchestration: true, autoRepair: false, debugMode: false, maxConcurrentBots: 4 }),
);

describe('checkJson: what a daemon of this version sends is taken as it is', () => {
  it.each([
    ['builds', builds],
    ['build', builds[1]!],
    ['buildLogs', { entries: [logEntry(1), logEntry(2)], truncated: false, next: 2 }],
    ['health', wire(HealthResponse.parse({ ok: true, version: '1.0.0', uptimeMs: 5 }))],
    [
      'projects',
      wire([
        Project.parse({ name: 'site', createdAt: 'a', updatedAt: 'b', lastBuild: null, hasArtifact: false }),
      ]),
    ],
    ['getSettings', settings],
    [
      'bots',
      wire([
        BotInfo.parse({
          name: 'BuildBot',
          category: 'development',
          status: 'active',
          description: 'builds',
          currentJob: null,
          jobsRun: 1,
          failures: 0,
        }),
      ]),
    ],
    ['projectBlueprint', wire(makeBlueprint())],
  ] as const)('%s: "same", and zod gives back that very value', (name, sample) => {
    const response = routes[name].response as { parse(v: unknown): unknown };
    // The daemon answers with zod's output (define-route.ts), serialised.
    const value = wire(response.parse(sample));
    expect(checkJson(ROUTES[name].response as JsonSchema, value)).toBe('same');
    expect(zodOutput(response, value)).toBe(JSON.stringify(value));
  });

  it('the state file the daemon writes', () => {
    const state = wire(
      DaemonState.parse({
        pid: 7,
        port: 4317,
        host: '127.0.0.1',
        url: 'http://127.0.0.1:4317',
        version: '1.0.0',
        startedAt: '2026-01-02T03:04:05.000Z',
      }),
    );
    expect(checkJson(DAEMON_STATE_SCHEMA!, state)).toBe('same');
  });
});

describe('checkJson: a value zod would change or refuse is left to zod', () => {
  const SettingsSchema = jsonSchema(Settings);
  const StepSchema = jsonSchema(BuildStep);
  const step = wire(makeStep({ name: 'build', botName: 'BuildBot' }));

  it.each([
    ['a key zod strips', Settings, SettingsSchema, { ...settings, extra: 1 }],
    [
      'keys in another order than the shape (zod reorders them)',
      Settings,
      SettingsSchema,
      { autoRepair: false, botOrchestration: true, debugMode: false, maxConcurrentBots: 4 },
    ],
    [
      'a missing key with a default (zod fills it in)',
      BuildStep,
      StepSchema,
      Object.fromEntries(Object.entries(step).filter(([k]) => k !== 'attempt')),
    ],
  ] as const)('%s: "differs"', (_what, zodSchema, schema, value) => {
    expect(checkJson(schema, value)).toBe('differs');
    expect(zodOutput(zodSchema, value)).not.toBe(JSON.stringify(value));
  });

  it.each([
    ['a wrong type', { ...settings, debugMode: 'no' }],
    ['a number out of range', { ...settings, maxConcurrentBots: 0 }],
    ['a fraction for an integer', { ...settings, maxConcurrentBots: 1.5 }],
    ['a missing required key', { autoRepair: false, debugMode: false, maxConcurrentBots: 4 }],
    ['not an object', [settings]],
  ])('%s: "invalid", as zod says', (_what, value) => {
    expect(checkJson(SettingsSchema, value)).toBe('invalid');
    expect(Settings.safeParse(value).success).toBe(false);
  });

  it('a union: the first option that takes the value decides, as in zod', () => {
    const update = jsonSchema(SettingUpdate);
    expect(checkJson(update, { debugMode: true })).toBe('same');
    // Every option is a strict object: zod refuses an extra key; never "same".
    expect(checkJson(update, { debugMode: true, more: 1 })).not.toBe('same');
    expect(SettingUpdate.safeParse({ debugMode: true, more: 1 }).success).toBe(false);

    // Options that overlap: zod takes the first that parses (stripping what it does not know).
    const overlapping: JsonSchema = {
      anyOf: [
        {
          type: 'object',
          properties: { a: { type: 'string' } },
          required: ['a'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: { a: { type: 'string' }, b: { type: 'number' } },
          required: ['a', 'b'],
          additionalProperties: false,
        },
      ],
    };
    expect(checkJson(overlapping, { a: 'x' })).toBe('same');
    expect(checkJson(overlapping, { a: 'x', b: 1 })).not.toBe('same');
  });

  it('a discriminated union (oneOf): the option of the tag', () => {
    const result = jsonSchema(CliResult);
    const refused = { status: 'refused', file: 'x.txt', error: { code: 'INVALID_FILE_TYPE', message: 'no' } };
    expect(checkJson(result, refused)).toBe('same');
    expect(zodOutput(CliResult, refused)).toBe(JSON.stringify(refused));
    expect(checkJson(result, { ...refused, status: 'nope' })).toBe('invalid');
  });

  it('records keep their keys; loose objects and unknown keywords are left to zod', () => {
    const record: JsonSchema = {
      type: 'object',
      propertyNames: { type: 'string' },
      additionalProperties: { type: 'number' },
    };
    expect(checkJson(record, { b: 1, a: 2 })).toBe('same');
    expect(checkJson(record, { b: 'x' })).toBe('invalid');
    const loose: JsonSchema = {
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      additionalProperties: {},
    };
    expect(checkJson(loose, { a: 'x' })).toBe('unknown');
    expect(checkJson({ type: 'string', pattern: '^a' }, 'a')).toBe('unknown');
  });
});

describe('the precomputed answer schemas', () => {
  it('of the routes the CLI calls use only keywords checkJson knows (else it would load zod)', () => {
    const used = [
      'health',
      'builds',
      'build',
      'buildLogs',
      'projects',
      'botStatus',
      'bots',
      'getSettings',
      'updateSetting',
      'projectBlueprint',
      'planArchive',
      'upload',
      'startBuild',
      'cancelBuild',
      'previewUrl',
    ] as const;
    const keywords = new Set<string>();
    const walk = (schema: unknown): void => {
      if (Array.isArray(schema)) schema.forEach(walk);
      if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return;
      for (const [keyword, value] of Object.entries(schema)) {
        keywords.add(keyword);
        // Data, not schemas.
        if (keyword === 'enum' || keyword === 'const' || keyword === 'default' || keyword === 'required')
          continue;
        // Field names, each with its schema.
        if (keyword === 'properties') Object.values(value as object).forEach(walk);
        else walk(value);
      }
    };
    for (const name of used) {
      expect(ROUTES[name].response, name).not.toBeNull();
      walk(ROUTES[name].response);
    }
    expect([...keywords].filter((k) => !KNOWN_KEYWORDS.has(k))).toEqual([]);
  });
});
