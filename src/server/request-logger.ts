import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString, Logger } from 'pino';

type Method = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger, made into a real pino child only when something is logged at an enabled
 * level. Fastify builds one child per request, and with redaction configured pino serialises its
 * bindings through the redactor: a cost every request paid even when nothing was logged.
 */
class RequestLogger {
  #child: Logger | null = null;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get #real(): Logger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }

  get level(): LevelWithSilentOrString {
    return this.#child?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.#real.level = level;
  }

  isLevelEnabled(level: string): boolean {
    return this.#child ? this.#child.isLevelEnabled(level) : this.options.level === undefined ? this.parent.isLevelEnabled(level) : this.#real.isLevelEnabled(level);
  }

  #log(method: Method, args: unknown[]): void {
    if (!this.isLevelEnabled(method)) return;
    const real = this.#real;
    (real[method] as (...a: unknown[]) => void).apply(real, args);
  }

  fatal(...args: unknown[]) {
    this.#log('fatal', args);
  }
  error(...args: unknown[]) {
    this.#log('error', args);
  }
  warn(...args: unknown[]) {
    this.#log('warn', args);
  }
  info(...args: unknown[]) {
    this.#log('info', args);
  }
  debug(...args: unknown[]) {
    this.#log('debug', args);
  }
  trace(...args: unknown[]) {
    this.#log('trace', args);
  }
  silent() {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real.child(bindings, options) as FastifyBaseLogger;
  }
}

/** Fastify `childLoggerFactory`: see RequestLogger. */
export function requestLogger(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLogger(parent as Logger, bindings, options) as unknown as FastifyBaseLogger;
}

