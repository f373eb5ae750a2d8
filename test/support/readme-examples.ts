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
