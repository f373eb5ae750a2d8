/**
 * A throwaway CA with a server certificate for 127.0.0.1 and a client certificate, made with the
 * openssl command line, for the live clients' tests against their fakes (the AEAT's mutual TLS, AFIP's
 * CMS-signed login). The client's subject is the AEAT's test issuer unless given.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TestCertificates {
  readonly ca: string;
  readonly server: { readonly cert: string; readonly key: string };
  readonly client: { readonly cert: string; readonly key: string };
  /** A client certificate from another CA: the server must refuse it. */
  readonly stranger: { readonly cert: string; readonly key: string };
}

export function makeTestCertificates(clientSubject = '/CN=89890001K EMPRESA DE PRUEBAS/serialNumber=IDCES-89890001K'): TestCertificates {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'einvoice-certs-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const file = (name: string) => readFileSync(path.join(dir, name), 'utf8');
  try {
    const ca = (name: string) => openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${name}`, '-keyout', `${name}.key`, '-out', `${name}.crt`);
    const issue = (name: string, by: string, subject: string, ext?: string) => {
      openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', subject, '-keyout', `${name}.key`, '-out', `${name}.csr`);
      if (ext) writeFileSync(path.join(dir, `${name}.ext`), ext);
      openssl('x509', '-req', '-in', `${name}.csr`, '-CA', `${by}.crt`, '-CAkey', `${by}.key`, '-CAcreateserial', '-days', '2', '-out', `${name}.crt`, ...(ext ? ['-extfile', `${name}.ext`] : []));
      return { cert: file(`${name}.crt`), key: file(`${name}.key`) };
    };
    ca('test-ca');
    ca('other-ca');
    return {
      ca: file('test-ca.crt'),
      server: issue('server', 'test-ca', '/CN=127.0.0.1', 'subjectAltName=IP:127.0.0.1\n'),
      client: issue('client', 'test-ca', clientSubject),
      stranger: issue('stranger', 'other-ca', '/CN=stranger'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
