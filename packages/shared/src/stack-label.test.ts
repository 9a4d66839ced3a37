import { describe, expect, it } from 'vitest';
import { frameworkWithStack } from './format.ts';

describe('frameworkWithStack', () => {
  it('puts the stack beside the framework, alone when it is the framework, nothing for older plans', () => {
    expect(frameworkWithStack({ framework: 'flask', stack: 'python' })).toBe('flask · Python');
    expect(frameworkWithStack({ framework: 'vite', stack: 'javascript' })).toBe('vite · JavaScript');
    expect(frameworkWithStack({ framework: 'go', stack: 'go' })).toBe('Go');
    expect(frameworkWithStack({ framework: 'dotnet', stack: 'dotnet' })).toBe('.NET');
    expect(frameworkWithStack({ framework: 'next' })).toBe('next');
  });
});
