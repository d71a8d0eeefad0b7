import { describe, expect, it } from 'vitest';
import { ensureStack, type StackAction } from './local-stack.ts';

const stack = (answers: Partial<Record<StackAction, number>>) => {
  const calls: StackAction[] = [];
  return {
    calls,
    run: async (action: StackAction) => {
      calls.push(action);
      return answers[action] ?? 0;
    },
  };
};

describe('ensureStack', () => {
  it('leaves a running stack alone', async () => {
    const { calls, run } = stack({ status: 0 });
    await ensureStack({}, run, () => undefined);
    expect(calls).toEqual(['status']);
  });

  it('brings a stack that is down up', async () => {
    const { calls, run } = stack({ status: 1, up: 0 });
    await ensureStack({}, run, () => undefined);
    expect(calls).toEqual(['status', 'up']);
  });

  it('stops the demo when the stack does not come up', async () => {
    const { run } = stack({ status: 1, up: 1 });
    await expect(ensureStack({}, run, () => undefined)).rejects.toThrow(/did not come up/);
  });

  it('does not touch the local stack when the services are named in the environment', async () => {
    const { calls, run } = stack({});
    const said: string[] = [];
    await ensureStack({ KAFKA_BROKERS: 'kafka:9092' }, run, (line) => said.push(line));
    expect(calls).toEqual([]);
    expect(said.join()).toContain('KAFKA_BROKERS');
  });
});
