// The Node.js release is one fact in three places (#44): the image (Dockerfile ARG NODE_VERSION), the
// pinned Node that `npm start`, `npm test` and `npm run bench` run on (scripts/lib/node-runtime.mjs)
// and package.json's engines. What CI tests is what the image runs.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

describe('the Node.js release (#44)', () => {
  // node-runtime.mjs is ESM, which jest (CommonJS) does not import: its constant is read as text.
  const pinned = /export const PINNED_NODE_VERSION = '(\d+\.\d+\.\d+)'/.exec(read('scripts/lib/node-runtime.mjs'))?.[1];
  const image = /^ARG NODE_VERSION=(\S+)$/m.exec(read('Dockerfile'))?.[1];

  it('is the same in the image and in local runs, a Node 24 LTS', () => {
    expect(pinned).toMatch(/^24\./);
    expect(image).toBe(pinned);
  });

  it('builds every stage of the image on it', () => {
    const stages = read('Dockerfile').split('\n').filter((line) => line.startsWith('FROM '));
    expect(stages.length).toBeGreaterThan(0);
    for (const stage of stages) expect(stage).toMatch(/^FROM node:\$\{NODE_VERSION\}-bookworm(-slim)? AS \w+$/);
  });

  it('is the major the tests run on (the machine Node when it is that major, else the pinned one)', () => {
    expect(process.versions.node.split('.')[0]).toBe(pinned?.split('.')[0]);
  });

  it('is allowed by package.json engines, which no longer admits an end-of-life Node', () => {
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    expect(engines).toMatch(/^>=2[24]\./);
  });
});
