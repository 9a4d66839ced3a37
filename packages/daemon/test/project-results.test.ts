import { afterEach, describe, expect, it } from 'vitest';
import { projectZip } from '@forge/testing';
import type { BotInfo, BotStatusResponse, UploadResult } from '@forge/shared';
import fs from 'node:fs';
import path from 'node:path';
import { cleanup, startTestApp, tempDir } from './helpers.ts';
import { upload, watch } from './build-helpers.ts';

afterEach(cleanup);

const json = async <T>(res: Response | Promise<Response>): Promise<T> => (await (await res).json()) as T;

describe("a failing project test is the project's result, not a bot's fault", () => {
  it('the build succeeds with its tests failed; TestBot stays healthy and the Development activity is not red', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const zip = path.join(tempDir(), 'tests-fail.zip');
    fs.writeFileSync(zip, projectZip('tests-fail'));
    const result = (await (await upload(app, zip)).json()) as UploadResult;
    const build = await live.finished(result.buildId!);
    expect(build.status).toBe('succeeded');
    expect(build.test).toMatchObject({ ran: true, passed: false });
    expect(build.steps.find((s) => s.name === 'test')?.status).toBe('failed');

    const bots = await json<BotInfo[]>(fetch(`${app.url}/api/bots`));
    const testBot = bots.find((b) => b.name === 'TestBot')!;
    expect(testBot.jobsRun).toBeGreaterThan(0);
    expect(testBot.failures).toBe(0);
    expect(testBot.status).not.toBe('error');
    const { activities } = await json<BotStatusResponse>(fetch(`${app.url}/api/bots/status`));
    const development = activities.find((a) => a.type === 'development')!;
    expect(development.status).not.toBe('error');
  });
});
