import { describe, expect, it } from 'vitest';
import { parseSubject } from './subject.ts';
import { parseChat } from '../chat/commands.ts';

describe('"what changed since it last worked?" and close phrasings', () => {
  const asks = [
    'what changed since it last worked?',
    'What has changed since the last green build',
    "what's different since it last passed",
    'why is it red now?',
    'what changed since b12-3fa9c1',
    'show me the diff with the last successful build of shop',
  ];
  it.each(asks)('"%s" is about the changes, for the brain and the Forge chat', (q) => {
    expect(parseSubject(q, ['shop']).topic).toBe('changes');
    expect(parseChat(q).kind).toBe('changes');
  });

  it('keeps the build and the project a question names', () => {
    const s = parseSubject('what changed in b12-3fa9c1 since it last worked', ['shop']);
    expect(s).toMatchObject({ topic: 'changes', buildId: 'b12-3fa9c1' });
    expect(parseSubject('what changed in shop since it was green', ['shop'])).toMatchObject({
      topic: 'changes',
      project: 'shop',
    });
  });

  it('leaves the other questions to their topics', () => {
    expect(parseSubject('why did the build fail', ['shop']).topic).toBe('failure');
    expect(parseSubject('what did RepairBot change', ['shop']).topic).toBe('repairs');
    expect(parseSubject('which dependencies changed versions', ['shop']).topic).toBe('dependencies');
    expect(parseChat('status').kind).toBe('status');
  });
});
