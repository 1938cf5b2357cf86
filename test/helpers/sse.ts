/** Reads a whole SSE response into frames (comments kept apart), for byte-level assertions. */
export async function readSse(res: Response): Promise<{ raw: string; frames: { event?: string; data: string }[]; comments: string[] }> {
  const raw = await res.text();
  const frames: { event?: string; data: string }[] = [];
  const comments: string[] = [];
  for (const block of raw.split('\n\n')) {
    if (!block.trim()) continue;
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) comments.push(line.slice(1).trim());
      else if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length) frames.push({ event, data: data.join('\n') });
  }
  return { raw, frames, comments };
}

export function post(url: string, key: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}
