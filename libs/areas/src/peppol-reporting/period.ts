/**
 * The reporting period: one calendar month (OpenPeppol's Reporting FAQ: "The reporting period is one
 * month"), from 00:00:00 UTC of its first day to 23:59:59 UTC of its last, both inclusive (TSR 1.0.2 and
 * EUSR 1.1.1 §2 "Reporting Period").
 */

/** A month to report on. */
export interface ReportingPeriod {
  /** `YYYY-MM`. */
  readonly month: string;
  /** First day, `YYYY-MM-DD` (the report's StartDate). */
  readonly startDate: string;
  /** Last day, `YYYY-MM-DD` (the report's EndDate). */
  readonly endDate: string;
  /** First instant of the period. */
  readonly from: Date;
  /** First instant after it (exclusive bound). */
  readonly until: Date;
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The period of `YYYY-MM`; undefined for any other text. */
export function reportingPeriod(month: string): ReportingPeriod | undefined {
  const match = MONTH.exec(month);
  if (!match) return undefined;
  const year = Number(match[1]);
  const index = Number(match[2]) - 1;
  const from = new Date(Date.UTC(year, index, 1));
  const until = new Date(Date.UTC(year, index + 1, 1));
  const last = new Date(until.getTime() - 86_400_000);
  return { month, startDate: from.toISOString().slice(0, 10), endDate: last.toISOString().slice(0, 10), from, until };
}

/** The month before the one `now` falls in: the one due for reporting (by the 15th, OpenPeppol's Reporting FAQ). */
export function previousMonth(now: Date): string {
  const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return date.toISOString().slice(0, 7);
}
