import type { Logger } from 'pino';
import type { KalshiClient } from '../../data/kalshi/client.js';
import { EventSearch } from './search.js';

/**
 * The search index of open Kalshi events: loaded on first use, then refreshed in the
 * background once older than `refreshMs` (readers keep using the previous one meanwhile).
 */
export class OpenEventsIndex {
  #search: EventSearch | null = null;
  #loadedAt = 0;
  #loading: Promise<EventSearch> | null = null;

  constructor(
    private readonly client: KalshiClient,
    private readonly refreshMs: number,
    private readonly log: Logger,
  ) {}

  async get(): Promise<EventSearch> {
    if (this.#search && Date.now() - this.#loadedAt < this.refreshMs) return this.#search;
    if (this.#search) {
      void this.#load().catch((err) => this.log.warn({ err }, 'refreshing the open-events index failed; keeping the previous one'));
      return this.#search;
    }
    return this.#load();
  }

  #load(): Promise<EventSearch> {
    this.#loading ??= (async () => {
      try {
        const [events, series] = await Promise.all([this.client.openEvents(), this.client.allSeries()]);
        this.#search = new EventSearch(events, series);
        this.#loadedAt = Date.now();
        return this.#search;
      } finally {
        this.#loading = null;
      }
    })();
    return this.#loading;
  }
}
