import type { Clock } from '../shared/clock.js';

/** Discord honours an interaction's token for 15 minutes after the interaction was created. */
export const INTERACTION_TOKEN_LIFETIME_MS = 15 * 60_000;
/** Replies stop relying on the token this much earlier, which leaves time to tidy up what it wrote. */
export const INTERACTION_TOKEN_MARGIN_MS = 30_000;

/** Whether a slash command's reply can still go through its interaction token. */
export class InteractionToken {
  #refused = false;

  constructor(
    private readonly createdAt: number,
    private readonly clock: Clock,
  ) {}

  /** Safe to keep replying through the token. */
  get usable(): boolean {
    return !this.#refused && this.clock.now() < this.createdAt + INTERACTION_TOKEN_LIFETIME_MS - INTERACTION_TOKEN_MARGIN_MS;
  }

  /** Discord most likely still accepts the token: worth one last edit of a message it wrote. */
  get accepted(): boolean {
    return !this.#refused && this.clock.now() < this.createdAt + INTERACTION_TOKEN_LIFETIME_MS;
  }

  /** Discord answered that the token is not valid (any more). */
  refuse(): void {
    this.#refused = true;
  }
}

export function interactionToken(interaction: { createdTimestamp: number }, clock: Clock): InteractionToken {
  // The creation time comes from Discord's clock (the interaction's id); when ours runs behind
  // it, the moment the interaction reached us is the earlier, safer start.
  return new InteractionToken(Math.min(interaction.createdTimestamp, clock.now()), clock);
}
