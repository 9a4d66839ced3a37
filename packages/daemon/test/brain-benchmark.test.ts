import { afterEach, describe, expect, it } from 'vitest';
import type { BrainReply } from '@forge/shared';
import { startFakeModelServer } from '../src/capabilities/model/openai-server.fixture.ts';
import { FIXTURE_NOW, seedWorkspace } from '../bench/brain/fixture.ts';
import { BRAIN_CASES } from '../bench/brain/questions.ts';
import { runBrainCases, score } from '../bench/brain/run.ts';
import { cleanup, onCleanup, startTestApp, type TestApp, type TestAppOptions } from './helpers.ts';

afterEach(cleanup);

const GREETING = 'Hello Brain';
const CODE = 'open sesame 42';

async function post(app: TestApp, route: string, body: unknown, cookie?: string): Promise<Response> {
  return fetch(`${app.url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

/** A daemon holding the benchmark's workspace, and a signed-in brain session on it. */
async function workspace(options: TestAppOptions = {}) {
  const app = await startTestApp({ now: () => FIXTURE_NOW, ...options });
  const ids = seedWorkspace(app.forge.services, app.store);
  expect((await post(app, '/api/brain/greeting', { greeting: GREETING })).status).toBe(200);
  expect((await post(app, '/api/brain/code', { code: CODE })).status).toBe(200);
  let cookie: string | undefined;
  const say = async (message: string, project?: string | null): Promise<BrainReply> => {
    const res = await post(app, '/api/brain/handshake', project ? { message, project } : { message }, cookie);
    expect(res.status).toBe(200);
    const set = res.headers.getSetCookie();
    if (set.length) cookie = set[0]!.split(';')[0];
    return (await res.json()) as BrainReply;
  };
  await say(GREETING);
  expect((await say(CODE)).authenticated).toBe(true);
  return { app, ids, say };
}

describe('the brain benchmark (CI subset, over HTTP)', () => {
  it('answers with the right facts about the project asked, or says it does not know', async () => {
    const { ids, say } = await workspace();
    const cases = BRAIN_CASES.filter((c) => c.ci);
    expect(cases.length).toBeGreaterThanOrEqual(15);
    const outcomes = await runBrainCases(cases, ids, async (question, selected) => {
      const reply = await say(question, selected);
      return { reply: reply.reply, ...(reply.certainty ? { certainty: reply.certainty } : {}) };
    });
    const misses = outcomes.filter((o) => o.verdict !== 'right' && o.verdict !== 'honest');
    expect(misses.map((o) => `[${o.verdict}] ${o.question}: ${o.note ?? ''}`)).toEqual([]);
    expect(score(outcomes)).toMatchObject({ wrongProject: 0, wrong: 0 });
  });

  it('marks an "I don\'t know" with what would let it answer', async () => {
    const { say } = await workspace();
    const notBuilt = await say('how do the tests of notes do?', 'shop');
    expect(notBuilt).toMatchObject({
      certainty: 'unknown',
      needs: 'a build of notes first (say "build: notes" in the chat)',
    });
    expect(notBuilt.reply).toMatch(/^I don't know how notes's tests do/);
    const typo = await say('what is the plan of shopp?', 'api-server');
    expect(typo.certainty).toBe('unknown');
    expect(typo.reply).toContain('I don\'t know a project named "shopp". Did you mean shop?');
    expect(typo.reply).not.toContain('express');
    const known = await say('which files are in src?', 'shop');
    expect(known.certainty).toBe('known');
    expect(known.needs).toBeUndefined();
  });

  it("keeps memory cells to the signed-in asker and answers a guest's record question with neither", async () => {
    const { app, say } = await workspace();
    expect((await say('remember the staging url is https://staging.example.test')).reply).toBe(
      'Remembered: the staging url is https://staging.example.test.',
    );
    expect((await say('what is the staging url?')).reply).toBe(
      'the staging url is https://staging.example.test.',
    );
    const guest = (await (
      await post(app, '/api/brain/handshake', { message: 'what is the plan of shop?' })
    ).json()) as BrainReply;
    expect(guest.authenticated).toBe(false);
    expect(guest.reply).not.toContain('pnpm');
    expect(guest.reply).not.toContain('staging');
  });
});

describe('the brain with a model and a named project', () => {
  it("gives the model the named project's records to cite, not the selected one's", async () => {
    const model = await startFakeModelServer();
    onCleanup(() => model.close());
    const { ids, say } = await workspace({
      config: {
        brain: {
          provider: { url: model.url, model: 'llama-test', apiKey: 'sk-brain-bench' },
          sessionMinutes: 30,
        },
      },
    });
    const answer = say('why did broken-all fail, in plain words?', 'shop');
    const call = await model.nextCall();
    const system = call.body.messages![0]!.content;
    expect(system).toContain('Cite the facts you use as they are written (file:line, build id, time).');
    expect(system).toContain('Records found for this question:');
    expect(system).toContain(`The last build of broken-all (${ids.brokenAll}) failed`);
    expect(system).toContain('(src/total.ts:3:9)');
    expect(system).toContain('Project: broken-all');
    expect(system).not.toContain('Project: shop');
    expect(system).not.toContain(ids.shopPass);
    call.write(`It failed in build ${ids.brokenAll}: src/total.ts:3:9 assigns a string to a number.`);
    call.end();
    expect(await answer).toMatchObject({
      reply: `It failed in build ${ids.brokenAll}: src/total.ts:3:9 assigns a string to a number.`,
      certainty: 'known',
    });

    // An answer that quotes none of the records gets them named after it.
    const vague = say('what did RepairBot do to broken-dep?', 'shop');
    const third = await model.nextCall();
    third.write('It added a missing package.');
    third.end();
    expect((await vague).reply).toBe(
      `It added a missing package.\n(From Forge's records: r_1, ${ids.brokenDepFailed}.)`,
    );

    // A project Forge does not hold never reaches the model: there is nothing true to tell it.
    const typo = await say('what is the plan of broken-alll?', 'shop');
    expect(typo).toMatchObject({ certainty: 'unknown' });
    expect(typo.reply).toContain('Did you mean broken-all?');
    const second = model.nextCall();
    const raced = await Promise.race([second.then(() => 'called'), Promise.resolve('not called')]);
    expect(raced).toBe('not called');
  });
});
