/** Kalshi Trade API v2 shapes (the fields svc reads). Prices are `*_dollars` strings, counts `*_fp` strings. */

export interface KalshiMarket {
  ticker: string;
  event_ticker: string;
  market_type?: 'binary' | 'scalar';
  title?: string;
  yes_sub_title?: string;
  no_sub_title?: string;
  status: string;
  result?: 'yes' | 'no' | 'scalar' | '';
  open_time?: string;
  close_time?: string;
  expected_expiration_time?: string | null;
  latest_expiration_time?: string;
  occurrence_datetime?: string | null;
  settlement_ts?: string | null;
  settlement_value_dollars?: string | null;
  expiration_value?: string;
  yes_bid_dollars?: string;
  yes_ask_dollars?: string;
  no_bid_dollars?: string;
  no_ask_dollars?: string;
  last_price_dollars?: string;
  previous_yes_bid_dollars?: string;
  previous_yes_ask_dollars?: string;
  previous_price_dollars?: string;
  /** Contracts offered at the best YES bid and ask. */
  yes_bid_size_fp?: string;
  yes_ask_size_fp?: string;
  volume_fp?: string;
  volume_24h_fp?: string;
  open_interest_fp?: string;
  can_close_early?: boolean;
  early_close_condition?: string | null;
  strike_type?: string;
  floor_strike?: number | null;
  cap_strike?: number | null;
  rules_primary?: string;
  rules_secondary?: string;
}

export interface KalshiEvent {
  event_ticker: string;
  series_ticker: string;
  title: string;
  sub_title?: string;
  mutually_exclusive: boolean;
  category?: string;
  strike_date?: string | null;
  markets?: KalshiMarket[];
  settlement_sources?: { name: string; url: string }[];
  last_updated_ts?: string;
}

export interface KalshiSeries {
  ticker: string;
  title: string;
  category?: string;
  frequency?: string;
  tags?: string[];
  settlement_sources?: { name: string; url: string }[];
  contract_url?: string;
  contract_terms_url?: string;
}

export interface PriceOHLC {
  open_dollars?: string | null;
  low_dollars?: string | null;
  high_dollars?: string | null;
  close_dollars?: string | null;
  mean_dollars?: string | null;
}

export interface KalshiCandle {
  end_period_ts: number;
  yes_bid?: PriceOHLC;
  yes_ask?: PriceOHLC;
  price?: PriceOHLC & { previous_dollars?: string | null };
  volume_fp?: string;
  open_interest_fp?: string;
}

/** `orderbook_fp`: bids only, ascending, best bid last; asks derive from the other side's bids. */
export interface KalshiOrderbook {
  yes_dollars?: [string, string][] | null;
  no_dollars?: [string, string][] | null;
}
