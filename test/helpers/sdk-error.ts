import OpenAI from 'openai';

/** The SDK's error for a request, or a failure if it succeeded. */
export async function refusal(p: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await p;
  } catch (e) {
    if (e instanceof OpenAI.APIError) return e;
    throw e;
  }
  throw new Error('the request succeeded');
}
