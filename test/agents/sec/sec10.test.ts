import { describe, expect, it } from 'vitest';
import { demoTalk } from './demo-talk.js';

const { talk, consistent } = demoTalk();

describe('sec10: follow-ups on the demo snapshot', () => {
  it('"is that up or down?" of a ratio at two years leads with the direction', async () => {
    const a = await talk('Microsoft debt to equity FY2024', 'and the year before?', 'is that up or down?');
    expect(a.text.split('\n')[0]).toBe("**Down**: Microsoft's debt-to-equity ratio was 0.16x at the end of fiscal year 2024 (2024-06-30), against 0.20x at the end of fiscal year 2023 (2023-06-30) (change -0.04x).");
    consistent(a);
  });
});
