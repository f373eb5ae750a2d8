import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A document its tax authority refused (report `rejected`, or `invalid` at its verdict) was never
 * issued: its number is free again for the corrected document (JoFotara: "the number is free again";
 * KSeF and the AEAT keep no refused invoice either). The uniqueness of outgoing numbers per supplier
 * now leaves those rows out.
 */
export class RefusedNumbersFree1732200000032 implements MigrationInterface {
  name = 'RefusedNumbersFree1732200000032';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX documents_supplier_number_key`);
    await q.query(`
      CREATE UNIQUE INDEX documents_supplier_number_key ON documents (supplier_id, document_number)
        WHERE direction = 'outgoing' AND (report_state IS NULL OR report_state NOT IN ('rejected', 'invalid'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX documents_supplier_number_key`);
    await q.query(`CREATE UNIQUE INDEX documents_supplier_number_key ON documents (supplier_id, document_number) WHERE direction = 'outgoing'`);
  }
}
