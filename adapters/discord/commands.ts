import { ApplicationCommandOptionType, REST, Routes, type RESTPutAPIApplicationCommandsJSONBody } from 'discord.js';
import type { DiscordRegistrationSettings } from '../shared/config.js';

/** `/svc ask question:`, `/svc report url:`, `/svc link key:`, `/svc unlink`, `/svc help`. */
export const SVC_COMMANDS: RESTPutAPIApplicationCommandsJSONBody = [
  {
    name: 'svc',
    description: 'Research answers with sources',
    options: [
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: 'ask',
        description: 'Ask a research question',
        options: [{ type: ApplicationCommandOptionType.String, name: 'question', description: 'Your question', required: true, max_length: 2000 }],
      },
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: 'report',
        description: 'A research report on a Kalshi event',
        options: [{ type: ApplicationCommandOptionType.String, name: 'url', description: 'Kalshi event link (https://kalshi.com/markets/…)', required: true }],
      },
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: 'link',
        description: 'Use your own svc account (its plan and credits)',
        options: [{ type: ApplicationCommandOptionType.String, name: 'key', description: 'Your svc API key (only you see this)', required: true }],
      },
      { type: ApplicationCommandOptionType.Subcommand, name: 'unlink', description: "Go back to the server's svc account" },
      { type: ApplicationCommandOptionType.Subcommand, name: 'help', description: 'What svc can do' },
    ],
  },
];

/** Registers the commands for one guild (instant; for development) or globally (bulk overwrite). */
export async function registerCommands(settings: DiscordRegistrationSettings, guildId?: string): Promise<{ scope: 'guild' | 'global'; names: string[] }> {
  const rest = new REST({ api: settings.discordApiUrl }).setToken(settings.token);
  const route = guildId ? Routes.applicationGuildCommands(settings.applicationId, guildId) : Routes.applicationCommands(settings.applicationId);
  const registered = (await rest.put(route, { body: SVC_COMMANDS })) as Array<{ name: string }>;
  return { scope: guildId ? 'guild' : 'global', names: registered.map((c) => c.name) };
}
