import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the MyInvois sandbox (MYINVOIS_MODE=sandbox) keeps, as MyInvois itself would: one state
 * for every process of a stack, so a restarted reporting worker polls, cancels and recovers what
 * its predecessor submitted, and a token the gateway got works in the worker
 * (libs/areas/src/myinvois/connector/sandbox-state-postgres.ts holds the SQL). Instants the
 * sandbox decides with its own clock are epoch milliseconds (`bigint`).
 */
export class MyInvoisSandbox1732200000008 implements MigrationInterface {
  name = 'MyInvoisSandbox1732200000008';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE myinvois_sandbox_tokens (
        access_token      text    PRIMARY KEY,
        client_id         text    NOT NULL,
        on_behalf_of_tin  text    NOT NULL,
        expires_at        bigint  NOT NULL
      )`);
    await q.query(`CREATE INDEX myinvois_sandbox_tokens_expires_at ON myinvois_sandbox_tokens (expires_at)`);
    await q.query(`
      CREATE TABLE myinvois_sandbox_submissions (
        submission_uid      text       PRIMARY KEY,
        client_id           text       NOT NULL,
        date_time_received  text       NOT NULL,
        received_at         bigint     NOT NULL,
        seq                 bigserial  NOT NULL
      )`);
    await q.query(`CREATE INDEX myinvois_sandbox_submissions_client ON myinvois_sandbox_submissions (client_id, received_at)`);
    await q.query(`
      CREATE TABLE myinvois_sandbox_documents (
        uuid            text       PRIMARY KEY,
        submission_uid  text       NOT NULL REFERENCES myinvois_sandbox_submissions (submission_uid),
        seq             bigserial  NOT NULL,
        duplicate_key   text       NOT NULL,
        validates_at    bigint     NOT NULL,
        becomes_valid   boolean    NOT NULL,
        polled          boolean    NOT NULL DEFAULT false,
        version         integer    NOT NULL DEFAULT 0,
        summary         jsonb      NOT NULL
      )`);
    await q.query(`CREATE INDEX myinvois_sandbox_documents_submission ON myinvois_sandbox_documents (submission_uid, seq)`);
    await q.query(`CREATE INDEX myinvois_sandbox_documents_receiver ON myinvois_sandbox_documents ((summary->>'receiverId'))`);
    // DV302: one live document per duplicate key; the primary key decides concurrent claims.
    await q.query(`
      CREATE TABLE myinvois_sandbox_duplicate_keys (
        duplicate_key  text  PRIMARY KEY,
        uuid           text  NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE myinvois_sandbox_duplicate_keys`);
    await q.query(`DROP TABLE myinvois_sandbox_documents`);
    await q.query(`DROP TABLE myinvois_sandbox_submissions`);
    await q.query(`DROP TABLE myinvois_sandbox_tokens`);
  }
}
