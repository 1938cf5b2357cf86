import type { Plan } from '../agents/types.js';

export const PLANS: readonly Plan[] = ['free', 'plus', 'pro', 'enterprise'];

export const isPlan = (value: unknown): value is Plan => typeof value === 'string' && (PLANS as readonly string[]).includes(value);
