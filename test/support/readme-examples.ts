// The first-document examples of README.md, as a test finds and runs them: each is a fenced block
// opened with ```sh example=<area>, a shell script that expects GATEWAY and API_KEY in its environment.
import { spawn } from 'node:child_process';

/** Each area's first-document example, and what its last line shows once the document reached its final state. */
export const FINAL_STATE: Readonly<Record<string, string>> = {
  be: '"DeliveryStatus":"Delivered"',
  de: '"DeliveryStatus":"Delivered"',
  sg: '"DeliveryStatus":"Delivered"',
  peppol: '"SmlActivation":true',
  my: '"state":"valid"',
  ae: '"status":"completed"',
  es: '"aeat_status":"Correcto"',
  ng: '"status":"SIGNED"',
  jo: '"jofotara_status":"SUBMITTED"',
  pl: '"Status":"Accepted"',
  ar: '"Resultado":"A"',
};

/** One marked block of the README: its area and its text, exactly as written. */
export interface ReadmeExample {
  readonly area: string;
  readonly script: string;
}

const EXAMPLE_BLOCK = /^```sh example=([a-z0-9-]+)[ \t]*\n([\s\S]*?)^```[ \t]*$/gm;

/** Every marked example of a Markdown text, in the order written. */
export function readmeExamples(markdown: string): ReadmeExample[] {
  return [...markdown.matchAll(EXAMPLE_BLOCK)].map(([, area, script]) => ({ area, script }));
}

/** The literal secrets an example hands to the service (client secrets, portal passwords), for the log check. */
export function secretsIn(script: string): string[] {
  return [...script.matchAll(/"(?:client_secret|password)"\s*:\s*"([^"]+)"/g)].map(([, value]) => value);
}

export interface ScriptRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a script as a reader pasting it would, but strict: `bash -euo pipefail`, with the given variables. */
export function runScript(script: string, env: Record<string, string>): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** One HTTP request of an example, as its curl command writes it. */
export interface ReadmeRequest {
  readonly method: string;
  /** The path with each shell-spliced segment (`$DOC`) as `{}`; no query. */
  readonly path: string;
  /** Header names in lower case; a spliced value (`$SUPPLIER`) as SPLICE. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body with each spliced value marked (see `matchesReadmeBody`). */
  readonly body?: unknown;
}

/** Where the README's shell makes a value per run: a whole JSON value, or a part of a string. */
export const SPLICE = '\u2039splice\u203a';
const ANY_VALUE = '\u2039any value\u203a';
const MARK = '\u0001';

/** Every curl request of an example script, in the order written (each once, loops included once). */
export function readmeRequests(script: string): ReadmeRequest[] {
  const text = script.replace(/\\\n/g, ' ');
  const requests: ReadmeRequest[] = [];
  for (const match of text.matchAll(/(^|[\s($])curl\s/g)) {
    const words = shellWords(text, match.index + match[0].length);
    let method: string | undefined;
    let url: string | undefined;
    let data: string | undefined;
    const headers: Record<string, string> = {};
    for (let i = 0; i < words.length; i++) {
      const word = words[i];
      if (word === '-X' || word === '--request') method = words[++i];
      else if (word === '-H' || word === '--header') {
        const [name, ...value] = words[++i].split(':');
        headers[name.trim().toLowerCase()] = value.join(':').trim().replaceAll(MARK, SPLICE);
      } else if (word === '-d' || word === '--data' || word === '--data-raw') data = words[++i];
      else if (word.startsWith(`${MARK}/`)) url = word.slice(1);
    }
    if (url === undefined) throw new Error(`a curl command without "$GATEWAY/…": ${text.slice(match.index, match.index + 120)}`);
    const path = url.split('?')[0].split('/').map((segment) => (segment.includes(MARK) ? '{}' : segment)).join('/');
    requests.push({ method: method ?? (data === undefined ? 'GET' : 'POST'), path, headers, ...(data === undefined ? {} : { body: readmeJson(data) }) });
  }
  return requests;
}

/** A `-d` body: a spliced whole value (`"CbteDesde":'$N'`) matches any value; a splice inside a string, any text there. */
function readmeJson(data: string): unknown {
  const marked = data
    .replace(new RegExp(`(?<=[:\\[,]\\s*)${MARK}(?=\\s*[,\\]}])`, 'g'), JSON.stringify(ANY_VALUE))
    .replaceAll(MARK, SPLICE);
  return JSON.parse(marked);
}

/** The places where an example's value differs from the README's body (none: they agree). */
export function readmeBodyDifferences(readme: unknown, example: unknown, at = '$'): string[] {
  if (readme === ANY_VALUE) return example === undefined || example === null ? [`${at}: missing`] : [];
  if (typeof readme === 'string' && readme.includes(SPLICE)) {
    const pattern = new RegExp(`^${readme.split(SPLICE).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+')}$`);
    return typeof example === 'string' && pattern.test(example) ? [] : [`${at}: ${JSON.stringify(example)} is not ${JSON.stringify(readme)}`];
  }
  if (Array.isArray(readme)) {
    if (!Array.isArray(example) || example.length !== readme.length) return [`${at}: ${JSON.stringify(example)} is not a list of ${readme.length}`];
    return readme.flatMap((item, i) => readmeBodyDifferences(item, example[i], `${at}[${i}]`));
  }
  if (readme !== null && typeof readme === 'object') {
    if (example === null || typeof example !== 'object' || Array.isArray(example)) return [`${at}: ${JSON.stringify(example)} is not an object`];
    const keys = new Set([...Object.keys(readme), ...Object.keys(example)]);
    return [...keys].flatMap((key) => readmeBodyDifferences((readme as Record<string, unknown>)[key], (example as Record<string, unknown>)[key], `${at}.${key}`));
  }
  return readme === example ? [] : [`${at}: ${JSON.stringify(example)} is not ${JSON.stringify(readme)}`];
}

/**
 * The words of one shell command from `start` to its end (an unquoted newline, `|`, `;` or the `)`
 * closing the `$(` it stands in), quotes removed, each expansion (`$VAR`, `$(…)`, `$((…))`, `${…}`) as MARK.
 */
function shellWords(text: string, start: number): string[] {
  const words: string[] = [];
  let word: string | undefined;
  const add = (s: string) => (word = (word ?? '') + s);
  let i = start;
  const expansion = () => {
    // text[i] === '$'
    if (text[i + 1] === '(' || text[i + 1] === '{') {
      const close = text[i + 1] === '(' ? ')' : '}';
      let depth = 0;
      let j = i + 1;
      for (; j < text.length; j++) {
        if (text[j] === text[i + 1]) depth++;
        else if (text[j] === close && --depth === 0) break;
      }
      i = j + 1;
    } else {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1))?.[0] ?? '';
      i += 1 + name.length;
    }
    add(MARK);
  };
  while (i < text.length) {
    const c = text[i];
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      add(text.slice(i + 1, end));
      i = end + 1;
    } else if (c === '"') {
      i++;
      while (text[i] !== '"') {
        if (text[i] === '$') expansion();
        else if (text[i] === '\\') {
          add(text[i + 1]);
          i += 2;
        } else {
          add(text[i]);
          i++;
        }
      }
      i++;
    } else if (c === '$') expansion();
    else if (c === ' ' || c === '\t') {
      if (word !== undefined) words.push(word);
      word = undefined;
      i++;
    } else if (c === '\n' || c === '|' || c === ';' || c === ')') break;
    else {
      add(c);
      i++;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}
