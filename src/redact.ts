/** Query parameters that carry credentials (node-postgres reads `?password=` as the password). */
const SECRET_PARAM = /^(?:pass(?:word)?|secret|token|api_?key|sslpassword)$/i;

/**
 * A URL as it may be shown: its password and credential parameters replaced by `***`. Text that
 * does not parse as a URL (a password with a `/` in it) has everything between `user:` and the
 * host's `@` hidden instead; text that is not a URL at all is returned as it is.
 */
export function redactUrl(text: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text.trim())) return text;
  try {
    const u = new URL(text.trim());
    const secrets = [...u.searchParams.keys()].filter((key) => SECRET_PARAM.test(key));
    // Nothing to hide: shown as written, not as the URL parser would normalise it.
    if (!u.password && !secrets.length) return text;
    if (u.password) u.password = '***';
    for (const key of secrets) u.searchParams.set(key, '***');
    return u.toString();
  } catch {
    return text
      .replace(/(\/\/[^:/@\s]*:)\S*@/, '$1***@')
      .replace(/([?&](?:pass(?:word)?|secret|token|api_?key|sslpassword)=)[^&#\s]*/gi, '$1***');
  }
}
