// NFL and NBA teams by the names people ask with: a place ("Kansas City", "Buffalo") or an
// abbreviation ("KC", "BUF") for a team that event titles and outcomes call by its nickname
// ("Bills at Chiefs", "Home team (Chiefs)"), or the other way round.

export interface Team {
  league: 'NFL' | 'NBA';
  /** As titles write it: "Chiefs", "49ers", "Trail Blazers". */
  nickname: string;
  /** Places it is called by, the first its home: "Kansas City"; "Golden State", "Bay Area". */
  places: string[];
  /** Abbreviations, upper case: "KC". */
  abbreviations: string[];
  /** Other short names: "Niners", "Cavs", "Sixers". */
  also?: string[];
}

const team = (league: Team['league'], nickname: string, places: string, abbreviations: string, also?: string): Team => ({
  league,
  nickname,
  places: places.split('|'),
  abbreviations: abbreviations.split('|'),
  ...(also ? { also: also.split('|') } : {}),
});

export const TEAMS: readonly Team[] = [
  team('NFL', 'Cardinals', 'Arizona', 'ARI'),
  team('NFL', 'Falcons', 'Atlanta', 'ATL'),
  team('NFL', 'Ravens', 'Baltimore', 'BAL'),
  team('NFL', 'Bills', 'Buffalo', 'BUF'),
  team('NFL', 'Panthers', 'Carolina', 'CAR'),
  team('NFL', 'Bears', 'Chicago', 'CHI'),
  team('NFL', 'Bengals', 'Cincinnati', 'CIN'),
  team('NFL', 'Browns', 'Cleveland', 'CLE'),
  team('NFL', 'Cowboys', 'Dallas', 'DAL'),
  team('NFL', 'Broncos', 'Denver', 'DEN'),
  team('NFL', 'Lions', 'Detroit', 'DET'),
  team('NFL', 'Packers', 'Green Bay', 'GB'),
  team('NFL', 'Texans', 'Houston', 'HOU'),
  team('NFL', 'Colts', 'Indianapolis|Indy', 'IND'),
  team('NFL', 'Jaguars', 'Jacksonville', 'JAX|JAC', 'Jags'),
  team('NFL', 'Chiefs', 'Kansas City', 'KC'),
  team('NFL', 'Raiders', 'Las Vegas|Vegas', 'LV'),
  team('NFL', 'Chargers', 'Los Angeles|LA', 'LAC'),
  team('NFL', 'Rams', 'Los Angeles|LA', 'LAR|LA'),
  team('NFL', 'Dolphins', 'Miami', 'MIA', 'Fins'),
  team('NFL', 'Vikings', 'Minnesota', 'MIN', 'Vikes'),
  team('NFL', 'Patriots', 'New England|Boston', 'NE', 'Pats'),
  team('NFL', 'Saints', 'New Orleans', 'NO'),
  team('NFL', 'Giants', 'New York|NY', 'NYG'),
  team('NFL', 'Jets', 'New York|NY', 'NYJ'),
  team('NFL', 'Eagles', 'Philadelphia|Philly', 'PHI'),
  team('NFL', 'Steelers', 'Pittsburgh', 'PIT'),
  team('NFL', '49ers', 'San Francisco|Bay Area', 'SF', 'Niners'),
  team('NFL', 'Seahawks', 'Seattle', 'SEA', 'Hawks'),
  team('NFL', 'Buccaneers', 'Tampa Bay|Tampa', 'TB', 'Bucs'),
  team('NFL', 'Titans', 'Tennessee', 'TEN'),
  team('NFL', 'Commanders', 'Washington', 'WAS|WSH'),
  team('NBA', 'Hawks', 'Atlanta', 'ATL'),
  team('NBA', 'Celtics', 'Boston', 'BOS', 'Celts'),
  team('NBA', 'Nets', 'Brooklyn', 'BKN|BRK'),
  team('NBA', 'Hornets', 'Charlotte', 'CHA|CHO'),
  team('NBA', 'Bulls', 'Chicago', 'CHI'),
  team('NBA', 'Cavaliers', 'Cleveland', 'CLE', 'Cavs'),
  team('NBA', 'Mavericks', 'Dallas', 'DAL', 'Mavs'),
  team('NBA', 'Nuggets', 'Denver', 'DEN'),
  team('NBA', 'Pistons', 'Detroit', 'DET'),
  team('NBA', 'Warriors', 'Golden State|San Francisco|Bay Area', 'GSW|GS', 'Dubs'),
  team('NBA', 'Rockets', 'Houston', 'HOU'),
  team('NBA', 'Pacers', 'Indiana|Indianapolis|Indy', 'IND'),
  team('NBA', 'Clippers', 'Los Angeles|LA', 'LAC', 'Clips'),
  team('NBA', 'Lakers', 'Los Angeles|LA', 'LAL', 'Lake Show'),
  team('NBA', 'Grizzlies', 'Memphis', 'MEM', 'Grizz'),
  team('NBA', 'Heat', 'Miami', 'MIA'),
  team('NBA', 'Bucks', 'Milwaukee', 'MIL'),
  team('NBA', 'Timberwolves', 'Minnesota', 'MIN', 'Wolves|Twolves'),
  team('NBA', 'Pelicans', 'New Orleans', 'NOP|NO', 'Pels'),
  team('NBA', 'Knicks', 'New York|NY', 'NYK'),
  team('NBA', 'Thunder', 'Oklahoma City|OKC', 'OKC'),
  team('NBA', 'Magic', 'Orlando', 'ORL'),
  team('NBA', '76ers', 'Philadelphia|Philly', 'PHI', 'Sixers'),
  team('NBA', 'Suns', 'Phoenix', 'PHX|PHO'),
  team('NBA', 'Trail Blazers', 'Portland', 'POR', 'Blazers'),
  team('NBA', 'Kings', 'Sacramento', 'SAC'),
  team('NBA', 'Spurs', 'San Antonio', 'SAS|SA'),
  team('NBA', 'Raptors', 'Toronto', 'TOR', 'Raps'),
  team('NBA', 'Jazz', 'Utah', 'UTA|UTAH'),
  team('NBA', 'Wizards', 'Washington', 'WAS|WSH', 'Wiz'),
];

/** Abbreviations also read in lower case ("will kc win?"); the rest are words too ("no", "min", "sea"), so only in capitals. */
const LOWER_CASE_OK = new Set(['KC', 'GB', 'SF', 'TB', 'LV', 'BUF', 'JAX', 'NYG', 'NYJ', 'NYK', 'LAL', 'LAC', 'LAR', 'GSW', 'OKC', 'BKN', 'PHX', 'MIL', 'MEM', 'POR', 'SAC', 'SAS', 'TOR', 'ORL', 'BOS', 'CIN', 'ATL', 'HOU', 'DAL', 'DEN', 'PHI', 'PIT', 'BAL', 'ARI', 'CLE', 'DET', 'MIA', 'NOP', 'WSH', 'CHA', 'UTA']);

/** A place, abbreviation or nickname a text names teams by, and where. */
export interface TeamMention {
  at: number;
  said: string;
  teams: Team[];
  /** Named by nickname ("Chiefs", "Niners"), which titles already write; otherwise by place or abbreviation. */
  byNickname: boolean;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const byLength = (a: string, b: string) => b.length - a.length;

function index(names: (t: Team) => string[]): Map<string, Team[]> {
  const out = new Map<string, Team[]>();
  for (const t of TEAMS) for (const n of names(t)) out.set(n.toLowerCase(), [...(out.get(n.toLowerCase()) ?? []), t]);
  return out;
}
const BY_PLACE = index((t) => t.places);
const BY_ABBREVIATION = index((t) => t.abbreviations);
const BY_NICKNAME = index((t) => [t.nickname, ...(t.also ?? [])]);
// Places of two letters ("LA", "NY") are abbreviations too: read in capitals only.
const PLACES = [...BY_PLACE.keys()].filter((p) => p.length > 2).sort(byLength);
const ABBREVIATIONS = [...new Set([...BY_ABBREVIATION.keys(), ...[...BY_PLACE.keys()].filter((p) => p.length <= 2)])].sort(byLength);
const NICKNAMES = [...BY_NICKNAME.keys()].sort(byLength);
const MENTION = new RegExp(`(?<![\\w'’-])(?:(${PLACES.map(escape).join('|')})|(${ABBREVIATIONS.map(escape).join('|')})|(${NICKNAMES.map(escape).join('|')}))(?![\\w-])`, 'gi');

/** The teams a text names, in order: by place ("Buffalo"), abbreviation ("KC") or nickname ("Chiefs"). */
const TRADING_WORDS = /\b(?:buy|buying|bought|sell|selling|sold|short|long|ev|kelly|contracts?|side|bid|ask|cost|costs|price|pays?|payout|yes|fade)\b/i;

export function teamMentions(text: string): TeamMention[] {
  const out: TeamMention[] = [];
  // Written all in capitals, "NO" and "TEN" are words again.
  const capitals = !/[a-z]/.test(text);
  for (const m of text.matchAll(MENTION)) {
    const [said, place, abbreviation] = m;
    if (abbreviation && (capitals || said !== said.toUpperCase()) && !LOWER_CASE_OK.has(said.toUpperCase())) continue;
    // "Should I buy NO on above 3.0?": among trading words "NO" is a contract's side, not New Orleans.
    if (abbreviation && said === 'NO' && TRADING_WORDS.test(text)) continue;
    const key = said.toLowerCase();
    // "1000 bucks", "a few bucks": money, not Milwaukee.
    if (key === 'bucks' && /(?:\d[\d,.]*k?|few|couple(?: of)?|some|many|more|extra)\s*$/i.test(text.slice(0, m.index!))) continue;
    const teams = place ? BY_PLACE.get(key)! : abbreviation ? [...(BY_ABBREVIATION.get(key) ?? []), ...(BY_PLACE.get(key) ?? [])] : BY_NICKNAME.get(key)!;
    out.push({ at: m.index!, said, teams: [...new Set(teams)], byNickname: !place && !abbreviation });
  }
  return out;
}

/**
 * The text with each team it names followed by the name `among` (an event's title and outcomes)
 * calls it by: "odds KC beats Buffalo" among "Bills at Chiefs" → "odds KC Chiefs beats Buffalo
 * Bills"; "the Chiefs" among "Buffalo at Kansas City" → "the Chiefs Kansas City". Without
 * `among`, a place or abbreviation is followed by the nicknames of its teams.
 */
export function withTeamNames(text: string, among = ''): string {
  const own = among.toLowerCase();
  const has = (name: string) => new RegExp(`(?<![a-z0-9])${escape(name.toLowerCase())}(?![a-z0-9])`).test(own);
  const lower = text.toLowerCase();
  let out = '';
  let from = 0;
  for (const m of teamMentions(text)) {
    const names = among
      ? m.teams.flatMap((t) => [t.nickname, ...t.places].filter((n) => has(n)).slice(0, 1))
      : m.byNickname
        ? []
        : m.teams.map((t) => t.nickname);
    const added = [...new Set(names)].filter((n) => !lower.includes(n.toLowerCase()));
    out += `${text.slice(from, m.at + m.said.length)}${added.length ? ` ${added.join(' ')}` : ''}`;
    from = m.at + m.said.length;
  }
  return out + text.slice(from);
}

/** Whether a question is about a game: two teams of one league named, or one with a word of play ("will KC cover?"). */
export function asksAboutGame(text: string): boolean {
  const mentions = teamMentions(text);
  if (!mentions.length) return false;
  const leagues = (m: TeamMention) => new Set(m.teams.map((t) => t.league));
  const distinct = new Set(mentions.flatMap((m) => m.teams));
  if (mentions.length >= 2 && distinct.size >= 2 && [...leagues(mentions[0]!)].some((l) => mentions.slice(1).some((m) => leagues(m).has(l)))) return true;
  return /\b(?:win|wins|winning|won|beat|beats|beating|lose|loses|losing|game|games|match|matchup|play|plays|playing|cover|covers|spread|moneyline|favou?red|favou?rite|underdog|tonight|vs\.?|versus|against)\b/i.test(text);
}
