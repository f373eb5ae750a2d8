// Closed-loop load for areas whose answer is the authority's verdict (`sync`): one client per supplier
// (a device issues in sequence), each sending one document after the other for `duration` seconds.
import { distribution } from './stats.mjs';

export async function syncLoad({ url, apiKey, participants, path, bodyOf, idOf, duration, header = 'participant-id' }) {
  const latencies = [];
  const ids = [];
  const statuses = {};
  let firstError;
  const until = Date.now() + duration * 1000;
  const started = Date.now();
  await Promise.all(participants.map(async (participant, client) => {
    for (let i = 1; Date.now() < until; i += 1) {
      const t0 = performance.now();
      const response = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-svc-auth-key': apiKey, [header]: participant },
        body: JSON.stringify(bodyOf(client, i)),
      });
      const text = await response.text();
      latencies.push(performance.now() - t0);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      if (response.status === 200) ids.push(idOf(JSON.parse(text)));
      else if (!firstError) firstError = { status: response.status, body: text };
    }
  }));
  const seconds = (Date.now() - started) / 1000;
  return { clients: participants.length, ids, answered: ids.length, perSecond: ids.length / seconds, statuses, firstError, latency: distribution(latencies) };
}
